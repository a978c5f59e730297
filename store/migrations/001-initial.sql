-- SPDX-License-Identifier: GPL-3.0-or-later
--
-- 001: cases, the threads they cover, and the append-only event log.
-- Applied by store/migrate.c inside one transaction.

CREATE TABLE cases (
	id          INTEGER PRIMARY KEY,
	kind        TEXT NOT NULL
	            CHECK (kind IN ('admonition', 'escalation', 'tab')),
	state       TEXT NOT NULL,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL,
	reported_at INTEGER NOT NULL,
	subject     TEXT
);

-- A case covers one or more notmuch threads; a thread may belong to
-- several cases over time (a closed case, then a new one).
CREATE TABLE case_threads (
	case_id   INTEGER NOT NULL REFERENCES cases(id),
	thread_id TEXT NOT NULL,
	added_at  INTEGER NOT NULL,
	PRIMARY KEY (case_id, thread_id)
);

-- "Which case covers this thread?" is asked for every thread shown.
CREATE INDEX case_threads_thread ON case_threads(thread_id);

-- Each event's hash covers data_sha256, not data itself, so data can be
-- erased later (set to NULL) while the chain stays verifiable.
CREATE TABLE events (
	id          INTEGER PRIMARY KEY,
	case_id     INTEGER REFERENCES cases(id),
	at          INTEGER NOT NULL,
	actor       TEXT NOT NULL,
	type        TEXT NOT NULL,
	data        TEXT,
	data_sha256 TEXT NOT NULL,
	prev_hash   TEXT NOT NULL,
	hash        TEXT NOT NULL UNIQUE
);

CREATE INDEX events_case ON events(case_id);

-- The log is append-only, enforced here so that no code path (ours or a
-- future one) can rewrite history by accident.
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
	SELECT RAISE(ABORT, 'events are append-only');
END;

-- The one permitted change is erasure: data from non-NULL to NULL with
-- every other column unchanged.  IS compares NULLs (case_id) as equal.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
WHEN NOT (OLD.data IS NOT NULL AND NEW.data IS NULL
	  AND NEW.id IS OLD.id
	  AND NEW.case_id IS OLD.case_id
	  AND NEW.at IS OLD.at
	  AND NEW.actor IS OLD.actor
	  AND NEW.type IS OLD.type
	  AND NEW.data_sha256 IS OLD.data_sha256
	  AND NEW.prev_hash IS OLD.prev_hash
	  AND NEW.hash IS OLD.hash)
BEGIN
	SELECT RAISE(ABORT, 'events are append-only; only data may be erased');
END;

-- A new event must extend the chain from the newest one, so two writers
-- racing outside a transaction cannot fork the log.
CREATE TRIGGER events_chain BEFORE INSERT ON events
WHEN NEW.prev_hash IS NOT
     COALESCE((SELECT hash FROM events ORDER BY id DESC LIMIT 1), '')
BEGIN
	SELECT RAISE(ABORT, 'event does not extend the hash chain');
END;
