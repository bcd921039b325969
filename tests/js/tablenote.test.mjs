// @ts-check
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "../../src/boardlab/web/static/js/i18n.js";
import { formatBytes, tableNote } from "../../src/boardlab/web/static/js/tablenote.js";

const MESSAGE = "table damaged: pack 0 is short; rebuild it with: boardlab solve dodgem --size 3 --force";

afterEach(() => setLang("en"));

test("a damaged table is named damaged with the server's message and offered a rebuild", () => {
  setLang("en");
  const note = tableNote({ state: "damaged", solvable: true, message: MESSAGE, estimate_s: 2 }, "search", "Dodgem");
  assert.match(note.text, /damaged/);
  assert.ok(note.text.includes(MESSAGE), note.text);
  assert.doesNotMatch(note.text, /not built/);
  assert.equal(note.offer, "Rebuild the table (about 2 s)");
});

test("the damaged note in Japanese keeps the server's message", () => {
  setLang("ja");
  const note = tableNote({ state: "damaged", solvable: true, message: MESSAGE, estimate_s: 2 }, "search", "Dodgem");
  assert.ok(note.text.includes("壊れて"), note.text);
  assert.ok(note.text.includes(MESSAGE), note.text);
  assert.ok(note.offer && note.offer.includes("作り直す"), String(note.offer));
});

test("a damaged table without a message still says damaged", () => {
  setLang("en");
  const note = tableNote({ state: "damaged", solvable: true }, "search", "Dodgem");
  assert.match(note.text, /damaged: rebuild it\./);
  assert.equal(note.offer, "Rebuild the table");
});

test("missing and failed tables are offered a build, not a rebuild", () => {
  setLang("en");
  for (const state of ["missing", "failed"]) {
    const note = tableNote({ state, solvable: true, estimate_s: 100 }, "search", "Dodgem");
    assert.match(note.text, /not built yet/);
    assert.match(note.text, /about 2 min and up to 1.5 GiB/);
    assert.equal(note.offer, "Build the table (about 2 min)");
  }
});

test("ready, building and unsolvable tables offer no build", () => {
  setLang("en");
  const ready = tableNote({ state: "ready", solvable: true }, "perfect", "Dodgem");
  assert.match(ready.text, /perfectly/);
  assert.equal(ready.offer, null);
  const building = tableNote({ state: "building", solvable: true }, "search", "Dodgem");
  assert.match(building.text, /until its table is built/);
  assert.equal(building.offer, null);
  const none = tableNote({ state: "unsolvable", solvable: false }, "search", "Dot Dash");
  assert.match(none.text, /Dot Dash has no perfect-play tables/);
  assert.equal(none.offer, null);
  assert.equal(tableNote(null, null, "Dodgem").offer, null);
});

test("a small table's build is named as quick, with no memory warning", () => {
  setLang("en");
  const note = tableNote({ state: "missing", solvable: true, estimate_s: 1 }, "search", "Dodgem");
  assert.match(note.text, /Building it takes about 1 s\./);
  assert.doesNotMatch(note.text, /memory|long time/);
  assert.equal(note.offer, "Build the table (about 1 s)");
});

const BIG = {
  state: "missing",
  solvable: true,
  estimate_s: 12600,
  buildable: false,
  disk_bytes: 85e9,
  positions: 2367000000,
  commands: ["boardlab solve --game dodgem --size 6", "boardlab tables install FOLDER-OR-URL/dodgem-6-classic-wins-normal"],
};

test("a table too big for the page offers no build and says its time, disk and commands", () => {
  setLang("en");
  for (const state of ["missing", "failed", "damaged"]) {
    const note = tableNote({ ...BIG, state }, "search", "Dodgem");
    assert.equal(note.offer, null);
    assert.match(note.text, /about 3 h 30 min on this machine and 85 GB of disk/);
    assert.match(note.text, /2,367,000,000 positions/);
    assert.ok(note.text.includes("`boardlab solve --game dodgem --size 6`"), note.text);
    assert.ok(note.text.includes("`boardlab tables install FOLDER-OR-URL/dodgem-6-classic-wins-normal`"), note.text);
  }
  setLang("ja");
  const ja = tableNote(BIG, "search", "Dodgem");
  assert.equal(ja.offer, null);
  assert.ok(ja.text.includes("boardlab solve --game dodgem --size 6"), ja.text);
});

test("a buildable table keeps its build offer", () => {
  setLang("en");
  const note = tableNote({ ...BIG, buildable: true, estimate_s: 100 }, "search", "Dodgem");
  assert.equal(note.offer, "Build the table (about 2 min)");
});

test("sizes read as kB, MB and GB", () => {
  assert.equal(formatBytes(200e3), "200 kB");
  assert.equal(formatBytes(870e6), "870 MB");
  assert.equal(formatBytes(2.4e9), "2.4 GB");
  assert.equal(formatBytes(85e9), "85 GB");
});
