// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { FRIEND_TEXTS, clockText, friendHash, isOlder, parseFriendHash } from "../../src/boardlab/web/static/js/friend-i18n.js";

test("a seat link and a watch link read back", () => {
  const id = "AbCdEfGhIjKlMnOpQrSt_-";
  const token = "tok_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
  assert.deepEqual(parseFriendHash(friendHash(id, token)), { game: id, token });
  assert.deepEqual(parseFriendHash(friendHash(id)), { game: id, token: null });
});

test("broken links are refused, not half read", () => {
  assert.equal(parseFriendHash(""), null);
  assert.equal(parseFriendHash("#g=short"), null);
  assert.equal(parseFriendHash("#g=../../etc/passwd-xx"), null);
  assert.deepEqual(parseFriendHash("#g=AbCdEfGhIjKl&t=<script>"), { game: "AbCdEfGhIjKl", token: null });
});

test("clock text: minutes and seconds, tenths under ten seconds, never negative", () => {
  assert.equal(clockText(245_000), "4:05");
  assert.equal(clockText(60_000), "1:00");
  assert.equal(clockText(9_340), "0:09.3");
  assert.equal(clockText(-5), "0:00.0");
});

test("every text exists in English and Japanese", () => {
  assert.deepEqual(Object.keys(FRIEND_TEXTS.ja).sort(), Object.keys(FRIEND_TEXTS.en).sort());
  for (const [key, value] of Object.entries(FRIEND_TEXTS.ja)) {
    const vars = (s) => (s.match(/\{\w+\}/g) || []).sort().join();
    assert.equal(vars(value), vars(FRIEND_TEXTS.en[key]), key);
  }
});

test("a slower poll answer never replaces a newer pushed state", () => {
  const joined = { id: "g", ply: 0, updated_at: 12.5, status: "playing" };
  const polled = { id: "g", ply: 0, updated_at: 10.0, status: "waiting" };
  assert.equal(isOlder(polled, joined), true);
  assert.equal(isOlder(joined, polled), false);
  assert.equal(isOlder({ ...joined, ply: 1, updated_at: 1 }, joined), false);
  assert.equal(isOlder({ ...joined, ply: 0 }, { ...joined, ply: 1 }), true);
  assert.equal(isOlder(polled, null), false);
  assert.equal(isOlder({ ...polled, id: "rematch" }, joined), false);
});
