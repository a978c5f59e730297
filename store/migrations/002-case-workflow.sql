-- SPDX-License-Identifier: GPL-3.0-or-later
--
-- 002: the case workflow.  The head of the event chain, committee
-- membership, the notmuch tag outbox and the notmuch revision at which a
-- thread joined a case.  Participants, votes, recusals and outcomes are
-- not tables: they are events, and core replays them.

-- The newest event and the number of events, kept by a trigger in the
-- same transaction as every insert.  The chain alone cannot show that its
-- newest events were removed; comparing it with this row can.
CREATE TABLE chain_head (
	id      INTEGER PRIMARY KEY CHECK (id = 1),
	hash    TEXT NOT NULL,
	n       INTEGER NOT NULL,
	last_id INTEGER NOT NULL
);

INSERT INTO chain_head (id, hash, n, last_id)
SELECT 1,
       COALESCE((SELECT hash FROM events ORDER BY id DESC LIMIT 1), ''),
       (SELECT count(*) FROM events),
       COALESCE((SELECT max(id) FROM events), 0);

CREATE TRIGGER events_head AFTER INSERT ON events
BEGIN
	UPDATE chain_head SET hash = NEW.hash, n = n + 1,
	       last_id = NEW.id WHERE id = 1;
END;

CREATE TRIGGER chain_head_no_delete BEFORE DELETE ON chain_head
BEGIN
	SELECT RAISE(ABORT, 'the chain head cannot be deleted');
END;

-- Committee, TAB and maintainers: a projection of the member events.  A
-- member sees reports made in [joined, left), never before or after.
CREATE TABLE members (
	address TEXT PRIMARY KEY,
	name    TEXT,
	role    TEXT NOT NULL
	        CHECK (role IN ('committee', 'tab', 'maintainer')),
	joined  INTEGER NOT NULL,
	left_at INTEGER
);

-- Tag changes waiting for notmuch, written in the event's transaction.
-- tags is the thread's complete wanted coc/ tag set at that moment; a
-- flush applies the thread's current set and deletes the rows.
CREATE TABLE outbox (
	id         INTEGER PRIMARY KEY,
	thread_id  TEXT NOT NULL,
	tags       TEXT NOT NULL,
	created_at INTEGER NOT NULL
);

-- notmuch's revision when the thread joined the case: later messages are
-- replies that came in after the case was opened.
ALTER TABLE case_threads ADD COLUMN lastmod INTEGER;
