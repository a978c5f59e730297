-- A case store as decorum wrote it before migration 004 (schema version 3,
-- when cases named notmuch thread ids), for tests/cli/test-upgrade.sh.
--
-- Made by decorum at commit 3b555e9 on the demo corpus indexed as
-- tests/lib.sh t_index does it (threads numbered in that order):
--   decorum --as maint@example.org tag 0000000000000008 escalation \
--       --note "hostile replies in review"
--   decorum --as maint@example.org case state 1 acknowledged
--   the TUI: / thread:0000000000000007, e, "personal remarks in review"
--   decorum --as maint@example.org tag 0000000000000006 tab \
--       --note "advice please"
-- then sqlite3 .dump.  The command line recorded each case's Message-IDs
-- in its open event; the TUI of then did not (case 2), and it stamped the
-- case with DECORUM_NOW misread as 2026 seconds: both are kept as they
-- were.  The loader sets journal_mode WAL and user_version 3, as decorum
-- had.  Everyone named is a fictional person of the demo corpus.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
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
INSERT INTO cases VALUES(1,'escalation','acknowledged',1796504741,1796504741,1791580320,'Report: hostile replies on linux-mm (folio reclaim batching)');
INSERT INTO cases VALUES(2,'escalation','new',2026,2026,1791533700,'Conduct report: personal remarks in “mm: vmscan” review');
INSERT INTO cases VALUES(3,'tab','new',1796504741,1796504741,1791448200,'Advice on a heated mm review thread (not a violation report)');
CREATE TABLE case_threads (
	case_id   INTEGER NOT NULL REFERENCES cases(id),
	thread_id TEXT NOT NULL,
	added_at  INTEGER NOT NULL, lastmod INTEGER,
	PRIMARY KEY (case_id, thread_id)
);
INSERT INTO case_threads VALUES(1,'0000000000000008',1796504741,53);
INSERT INTO case_threads VALUES(2,'0000000000000007',2026,NULL);
INSERT INTO case_threads VALUES(3,'0000000000000006',1796504741,56);
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
INSERT INTO events VALUES(1,1,1796504741,'maint@example.org','open','{''thread'': <''0000000000000008''>, ''kind'': <''escalation''>, ''note'': <''hostile replies in review''>, ''messages'': <[''20261009211200.50259-1-dsokolov@example.net'', ''20261012132000.47980-1-helen.marsh@example.org'']>}','8649343ab267aca5935153a1e1354633b6a7d2264f487eb6f36594b430451f36','','ebf6ccbabf1171c951a4dddadfcaac77857a671841b2e480d6d168a42fe4a0cc');
INSERT INTO events VALUES(2,1,1796504741,'maint@example.org','state','{''from'': <''new''>, ''to'': <''acknowledged''>}','d7067075396fed26026469cb06cd81c1a958321d2536ed3fde9a8fbd6ff32a35','ebf6ccbabf1171c951a4dddadfcaac77857a671841b2e480d6d168a42fe4a0cc','f13807fc0018a0fa5684e161d965fa254734e4f54a27e6dc0e60c1b2dd60d786');
INSERT INTO events VALUES(3,2,2026,'maint@example.org','open','{''thread'': <''0000000000000007''>, ''kind'': <''escalation''>, ''note'': <''personal remarks in review''>}','f71d327c162f9341c8c783fdfaf52fa29d88247ab03b7609f89b441bbe814a46','f13807fc0018a0fa5684e161d965fa254734e4f54a27e6dc0e60c1b2dd60d786','68e244de4d95f1772be61c3c5f67909c841ad0ab5421dee61e0c51c14a0bc9cf');
INSERT INTO events VALUES(4,3,1796504741,'maint@example.org','open','{''thread'': <''0000000000000006''>, ''kind'': <''tab''>, ''note'': <''advice please''>, ''messages'': <[''20261008083000.2549-1-marcus.penhallow@example.org'', ''20261009210500.3875-1-graham.tulloch@example.com'']>}','52c3eee069247f981878cebfbff25c77ef6e74729f34b63c6e5b4e67a4188d3e','68e244de4d95f1772be61c3c5f67909c841ad0ab5421dee61e0c51c14a0bc9cf','f1d6af3ce42bb114708750dc98ec30fd073220de8fb1afcfb9fde38f18350be7');
CREATE TABLE chain_head (
	id      INTEGER PRIMARY KEY CHECK (id = 1),
	hash    TEXT NOT NULL,
	n       INTEGER NOT NULL,
	last_id INTEGER NOT NULL
);
INSERT INTO chain_head VALUES(1,'f1d6af3ce42bb114708750dc98ec30fd073220de8fb1afcfb9fde38f18350be7',4,4);
CREATE TABLE members (
	address TEXT PRIMARY KEY,
	name    TEXT,
	role    TEXT NOT NULL
	        CHECK (role IN ('committee', 'tab', 'maintainer')),
	joined  INTEGER NOT NULL,
	left_at INTEGER
);
CREATE TABLE outbox (
	id         INTEGER PRIMARY KEY,
	thread_id  TEXT NOT NULL,
	tags       TEXT NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE INDEX case_threads_thread ON case_threads(thread_id);
CREATE INDEX events_case ON events(case_id);
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
	SELECT RAISE(ABORT, 'events are append-only');
END;
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
CREATE TRIGGER events_chain BEFORE INSERT ON events
WHEN NEW.prev_hash IS NOT
     COALESCE((SELECT hash FROM events ORDER BY id DESC LIMIT 1), '')
BEGIN
	SELECT RAISE(ABORT, 'event does not extend the hash chain');
END;
CREATE TRIGGER events_head AFTER INSERT ON events
BEGIN
	UPDATE chain_head SET hash = NEW.hash, n = n + 1,
	       last_id = NEW.id WHERE id = 1;
END;
CREATE TRIGGER chain_head_no_delete BEFORE DELETE ON chain_head
BEGIN
	SELECT RAISE(ABORT, 'the chain head cannot be deleted');
END;
CREATE INDEX events_type ON events(type, case_id);
CREATE INDEX case_threads_case ON case_threads(case_id, added_at);
COMMIT;
PRAGMA user_version = 3;
