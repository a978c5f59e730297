-- SPDX-License-Identifier: GPL-3.0-or-later
--
-- 004: cases cover mail named by Message-ID.  notmuch thread ids are a
-- counter of one Xapian database: a rebuild, a restore or another machine
-- hands them out again in another order, so they are kept only as a cache
-- (case_mail.thread_id), brought up to date by core/mail/anchor.c against the
-- database that mail_sync names, and never relied on across databases.

-- The messages a case covers.  scope 'thread': the message and every
-- message of whatever notmuch thread holds it (the report and the thread
-- it came in); 'message': that message alone.  role 'report' marks the
-- report itself.
CREATE TABLE case_mail (
	case_id    INTEGER NOT NULL REFERENCES cases(id),
	message_id TEXT NOT NULL,
	scope      TEXT NOT NULL DEFAULT 'thread'
	           CHECK (scope IN ('thread', 'message')),
	role       TEXT,
	added_at   INTEGER NOT NULL,
	thread_id  TEXT,
	PRIMARY KEY (case_id, message_id)
);

CREATE INDEX case_mail_message ON case_mail(message_id);
CREATE INDEX case_mail_thread ON case_mail(thread_id, case_id);
CREATE INDEX case_mail_case ON case_mail(case_id, added_at);

-- The notmuch database the cache was last brought up to date with.
CREATE TABLE mail_sync (
	id       INTEGER PRIMARY KEY CHECK (id = 1),
	uuid     TEXT NOT NULL,
	revision INTEGER NOT NULL
);

-- Threads of cases opened before 004.  Only notmuch can say which
-- messages they held, so core resolves them once notmuch is open,
-- records what it resolved as an event and deletes the row.
CREATE TABLE legacy_threads (
	case_id   INTEGER NOT NULL REFERENCES cases(id),
	thread_id TEXT NOT NULL,
	added_at  INTEGER NOT NULL,
	PRIMARY KEY (case_id, thread_id)
);

INSERT INTO legacy_threads (case_id, thread_id, added_at)
SELECT case_id, thread_id, added_at FROM case_threads;

-- The outbox names cases (and, for mail that left a case, a message),
-- not threads: a flush resolves them after the cache is up to date, so a
-- queued change can never land on a thread that another database gave
-- the same id.
CREATE TABLE outbox_by_case (
	id         INTEGER PRIMARY KEY,
	case_id    INTEGER NOT NULL,
	message_id TEXT,
	created_at INTEGER NOT NULL
);

INSERT INTO outbox_by_case (case_id, created_at)
SELECT DISTINCT t.case_id, o.created_at FROM outbox o
JOIN case_threads t ON t.thread_id = o.thread_id;

DROP TABLE outbox;
ALTER TABLE outbox_by_case RENAME TO outbox;
DROP TABLE case_threads;
