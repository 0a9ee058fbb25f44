// @ts-check
/// <reference types="node" />
// The browser's reconnect decision (net.js), without a browser: which closes are final, and
// the pauses between tries.

import { test } from "node:test";
import assert from "node:assert/strict";

import { afterClose, pageId } from "../../src/dos/web/static/js/net.js";

test("a seat taken by another page, a removal, a bad token or no table is final", () => {
  for (const code of [4000, 4003, 4400, 4401, 4404]) {
    assert.deepEqual(afterClose(code, true, 1), { next: "closed" }, String(code));
  }
});

test("a seat taken by this page's own late connection (4012) is come back to", () => {
  assert.deepEqual(afterClose(4012, true, 1), { next: "reconnect", pause: 500 });
});

test("a drop, a server going away or a flood is come back to, slower each try", () => {
  for (const code of [1000, 1001, 1006, 1011, 1013, 4408, 4429]) {
    assert.equal(afterClose(code, true, 1).next, "reconnect", String(code));
  }
  const pauses = [1, 2, 3, 4, 5, 6, 9].map((n) => {
    const then = afterClose(1006, true, n);
    return then.next === "reconnect" ? then.pause : -1;
  });
  assert.deepEqual(pauses, [500, 1000, 2000, 4000, 5000, 5000, 5000]);
});

test("a page that left the table is closed whatever the code", () => {
  assert.deepEqual(afterClose(1012, false, 1), { next: "closed" });
});

test("a page's id names it as the server reads one (8 to 64 URL-safe characters)", () => {
  const id = pageId();
  assert.match(id, /^[A-Za-z0-9_-]{8,64}$/);
  assert.notEqual(id, pageId());
});
