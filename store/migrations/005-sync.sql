-- SPDX-License-Identifier: GPL-3.0-or-later
--
-- 005: a committee shares one case history through git (core/sync/).
-- Nothing here is used until a remote is configured: a store that never
-- syncs keeps these tables empty and replays its cases as before.

-- A member's ssh public key ("ssh-ed25519 AAAA..."): what signs their
-- events on a remote and what their case keys are wrapped to.
ALTER TABLE members ADD COLUMN ssh_key TEXT;

-- The remotes (decorum remote add).  trust_root: the ssh public key of
-- the member whose own membership event starts the remote's trust.
CREATE TABLE sync_remotes (
	name       TEXT PRIMARY KEY,
	url        TEXT NOT NULL,
	trust_root TEXT,
	last_sync  INTEGER
);

-- Every envelope this store has sent or taken: the merged order is
-- (lamport, hash).  event_id is the local event it carries; NULL for a
-- sealed envelope (one this member holds no key to).  body is the
-- envelope as written (ciphertext and the clear headers): the signers'
-- windows are checked again over all of them at every sync.
CREATE TABLE sync_envelopes (
	hash     TEXT PRIMARY KEY,
	event_id INTEGER UNIQUE REFERENCES events(id),
	lamport  INTEGER NOT NULL,
	case_gid TEXT,
	author   TEXT NOT NULL,
	type     TEXT NOT NULL,
	at       INTEGER NOT NULL,
	origin   TEXT NOT NULL CHECK (origin IN ('local', 'remote')),
	body     TEXT,
	commit_id TEXT
);

CREATE INDEX sync_envelopes_order ON sync_envelopes(lamport, hash);

-- A case's global id: the hash of its opening envelope.
CREATE TABLE sync_cases (
	case_id INTEGER PRIMARY KEY REFERENCES cases(id),
	gid     TEXT NOT NULL UNIQUE
);

-- Data keys (age identities): one per case, and the committee's, which
-- membership events are encrypted to.  case_gid NULL: the committee's.
CREATE TABLE sync_keys (
	recipient   TEXT PRIMARY KEY,
	secret      TEXT NOT NULL,
	case_gid    TEXT,
	reported_at INTEGER
);

-- The newest commit of each ref this store has imported or written.
CREATE TABLE sync_refs (
	ref    TEXT PRIMARY KEY,
	commit_id TEXT NOT NULL
);
