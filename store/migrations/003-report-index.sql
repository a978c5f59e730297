-- SPDX-License-Identifier: GPL-3.0-or-later
--
-- 003: events by type, threads by case.  A report reads every case's kind and state from
-- the cases table and replays events only where they say more: the cases
-- with an outcome or a vote, and the events that decide who may see a
-- case.  Finding those without reading the whole log needs this index.
CREATE INDEX events_type ON events(type, case_id);

-- A case's threads in the order they joined it, without a sort.
CREATE INDEX case_threads_case ON case_threads(case_id, added_at);
