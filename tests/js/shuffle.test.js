// @ts-check
/// <reference types="node" />
// The shuffle check of the replay page (shuffle.js): the browser's SHA-256 of the revealed
// seed and salt against the commitment, without a browser.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

import { checkShuffle, hashedText, sha256Hex } from "../../src/dos/web/static/js/shuffle.js";

const SEED = "4611686018427387903";  // 2**62 - 1: more than a JavaScript number holds exactly
const SALT = "5a".repeat(16);
const COMMITMENT = createHash("sha256").update(`dos-deal:${SEED}:${SALT}`).digest("hex");

test("the hashed text is the one dos verify and a shell hash", async () => {
  assert.equal(hashedText(SEED, SALT), `dos-deal:${SEED}:${SALT}`);
  assert.equal(await sha256Hex(hashedText(SEED, SALT)), COMMITMENT);
});

test("a seed and salt that open the commitment verify it", async () => {
  const shuffle = { commitment: COMMITMENT, seed: SEED, salt: SALT, rounds: [0, 40] };
  assert.equal(await checkShuffle(shuffle), "verified");
});

test("a changed seed or salt does not", async () => {
  const shuffle = { commitment: COMMITMENT, seed: SEED, salt: SALT, rounds: [0] };
  assert.equal(await checkShuffle({ ...shuffle, seed: "4611686018427387902" }), "mismatch");
  assert.equal(await checkShuffle({ ...shuffle, salt: "a5".repeat(16) }), "mismatch");
});

test("without WebCrypto nothing is claimed, and an old game has nothing to check", async () => {
  const shuffle = { commitment: COMMITMENT, seed: SEED, salt: SALT, rounds: [0] };
  assert.equal(await checkShuffle(shuffle, null), "unchecked");
  assert.equal(await checkShuffle(null), "none");
});
