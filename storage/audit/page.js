// The audit page's verifier: it checks the export embedded in this page, in this browser, with
// WebCrypto. It follows docs/audit.md step by step (the server's storage/chain.py, storage/dice.py
// and storage/audit/ follow the same text). Nothing here talks to a network: the page's Content
// Security Policy forbids every connection, and the export travels inside the page.
"use strict";

const GENESIS = "0".repeat(64);
const FORMAT = "pbem-audit/1";
const CHAINED = ["actor", "created_at", "index", "key", "kind", "payload", "text", "user"];
const ROW_KEYS = new Set([...CHAINED, "hash", "prev_hash", "secret"]);
const PAYLOAD_KINDS = new Set(["order", "epoch", "salt", "reveal", "reveal-hidden", "undo", "rewind"]);
const RAW = Symbol("raw texts of the members"); // obj[RAW][key] = that member's JSON text
const HEX64 = /^[0-9a-f]{64}$/;
const utf8 = new TextEncoder();
/** "1 roll", "3 rolls": a count with its noun in the right number. */
const counted = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;

// ---------------------------------------------------------------- 1. reading the export
// Each line is canonical JSON (sorted keys, no spaces, UTF-8). A row's hash covers the canonical
// JSON of its chained fields, and that text is cut out of the line itself (the members' raw
// texts): what is hashed is exactly what the server wrote, whatever this browser's JSON would make
// of a number or an escape. A line with a space outside a string or unsorted keys is no canonical
// line (it was edited by hand); any other edit changes a hash or a commitment.

function stringEnd(text, start) {
  // The index of the quote that closes the string opened at `start` (one not escaped: after an
  // even number of backslashes).
  let i = start;
  for (;;) {
    i = text.indexOf('"', i + 1);
    let slashes = 0;
    while (text.charCodeAt(i - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return i;
  }
}

function raws(text, strict = false) {
  // The raw texts of the direct members of a JSON object ({key: text}) or array ([text, ...]),
  // found by one pass over the (already parsed, so valid) text; strict: a space outside a string
  // or keys out of order throw (a whole line; a nested value's edit shows in a hash anyway).
  const isObject = text[0] === "{";
  const out = isObject ? {} : [];
  let depth = 0, from = 1, key = null, last = null;
  const end = text.length - 1;
  const member = (i) => {
    if (isObject) {
      if (strict && last !== null && !(last < key)) throw new SyntaxError("keys not sorted");
      out[key] = text.slice(from, i); last = key; key = null;
    } else out.push(text.slice(from, i));
    from = i + 1;
  };
  for (let i = 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) { // a string: to its closing quote; at depth 0 in an object the first is a key
      const s = i;
      i = stringEnd(text, i);
      if (isObject && depth === 0 && key === null) { key = JSON.parse(text.slice(s, i + 1)); from = i + 2; i++; }
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
    else if (c === 44 && depth === 0) member(i);
    else if (strict && (c === 32 || c === 9 || c === 10 || c === 13)) throw new SyntaxError("a space outside a string");
  }
  if (end > 1) member(end);
  return out;
}

function parseCanonical(text) {
  const value = JSON.parse(text);
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new SyntaxError("not a JSON object");
  Object.defineProperty(value, RAW, { value: raws(text, true) });
  return value;
}

const rawOf = (text, key) => raws(text)[key]; // one member's raw text, of a nested value

function readExport(bytes) {
  // (header, rows): an unreadable line becomes {_error} at its place (as storage/audit/export.py).
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let lines;
  try {
    lines = decoder.decode(bytes).split("\n");
  } catch (e) { // not all UTF-8: line by line, so that the bad line is named
    lines = [];
    for (let k = 0, start = 0; k <= bytes.length; k++) {
      if (k < bytes.length && bytes[k] !== 10) continue;
      try { lines.push(decoder.decode(bytes.subarray(start, k))); } catch (e2) { lines.push(null); }
      start = k + 1;
    }
  }
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const parse = (text, number) => {
    if (text === null) return { _error: `line ${number} is not UTF-8` };
    try { return parseCanonical(text); } catch (e) {
      return { _error: `line ${number} is not a canonical JSON object (${e.message})` };
    }
  };
  if (!lines.length) return [{ _error: "the file is empty" }, []];
  return [parse(lines[0], 1), lines.slice(1).map((text, k) => parse(text, k + 2))];
}

// ---------------------------------------------------------------- 2. the hashes and the dice
const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (h) => new Uint8Array(h.match(/../g).map((b) => parseInt(b, 16)));
const sha256 = async (bytes) => hex(await crypto.subtle.digest("SHA-256", bytes));
const concat = (a, b) => { const out = new Uint8Array(a.length + b.length); out.set(a); out.set(b, a.length); return out; };

function chainedText(row) {
  // The canonical JSON of the chained fields, from the line's own member texts.
  return "{" + CHAINED.map((f) => `"${f}":${row[RAW][f]}`).join(",") + "}";
}

// hash(row) = SHA-256(prev_hash + canonical chained fields), hex.
const rowHash = (prevHash, row) => sha256(utf8.encode(prevHash + chainedText(row)));
// commitment(seed) = SHA-256 of the seed's 32 bytes, hex.
const commitmentOf = (seedHex) => sha256(unhex(seedHex));
// salt digest = SHA-256 of the canonical JSON list of the epoch's salts, in log order.
const saltDigest = (rawSalts) => sha256(utf8.encode("[" + rawSalts.join(",") + "]"));
// A hidden value's commitment = SHA-256(salt hex text + canonical JSON of the value).
const valueCommitment = (saltHex, rawValue) => sha256(utf8.encode(saltHex + rawValue));

function faceFromDigest(digest, faces) {
  // Rejection sampling: bytes (faces <= 256) or 2-byte big-endian chunks; a chunk below the largest
  // multiple of `faces` gives chunk % faces + 1; null when every chunk is rejected.
  const size = faces <= 256 ? 1 : 2;
  const span = size === 1 ? 256 : 65536;
  const limit = span - (span % faces);
  for (let k = 0; k + size <= digest.length; k += size) {
    const chunk = size === 1 ? digest[k] : digest[k] * 256 + digest[k + 1];
    if (chunk < limit) return (chunk % faces) + 1;
  }
  return null;
}

const keys = new Map(); // seed hex -> its HMAC key (imported once)
async function rollValue(seedHex, uid, epoch, n, purpose, saltDig, faces = 6) {
  // Draw n of an epoch: HMAC-SHA256(seed, "uid|epoch|n|purpose|salt digest" [+ "|d<faces>"]).
  if (!keys.has(seedHex)) {
    keys.set(seedHex, crypto.subtle.importKey("raw", unhex(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]));
  }
  const key = await keys.get(seedHex);
  let msg = `${uid}|${epoch}|${n}|${purpose}|${saltDig}` + (faces === 6 ? "" : `|d${faces}`);
  for (let extension = 0; ; extension++) {
    const text = extension ? `${msg}|${extension}` : msg; // the whole digest rejected: go on
    const face = faceFromDigest(new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8.encode(text))), faces);
    if (face !== null) return face;
  }
}

class Draws {
  // The server's DiceSource methods over one epoch's counter: shuffle is Fisher-Yates (i from
  // len-1 down to 1, j = die(i+1) - 1), pick = items[die(len) - 1]. Every draw takes its own n.
  constructor(seedHex, uid, epoch, nextN, saltDig) { Object.assign(this, { seedHex, uid, epoch, nextN, saltDig }); }
  async die(faces, purpose) { return rollValue(this.seedHex, this.uid, this.epoch, this.nextN++, purpose, this.saltDig, faces); }
  async shuffle(items, purpose) {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) { const j = (await this.die(i + 1, purpose)) - 1; [out[i], out[j]] = [out[j], out[i]]; }
    return out;
  }
  async pick(items, purpose) { return items[(await this.die(items.length, purpose)) - 1]; }
}

// ---------------------------------------------------------------- 3. the checks (docs/audit.md)
const isInt = (v) => Number.isInteger(v);
const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const short = (h) => (typeof h === "string" && h.length > 16 ? h.slice(0, 12) + "..." : JSON.stringify(h));

function rowDefect(row) {
  if ("_error" in row) return row._error;
  const missing = [...CHAINED, "prev_hash", "hash"].filter((f) => !(f in row));
  if (missing.length) return (missing.length === 1 ? "missing field " : "missing fields ") + missing.join(", ");
  for (const f of ["prev_hash", "hash"]) if (typeof row[f] !== "string") return `${f} is not a string`;
  return null;
}

function chainFailure(rows, hashes) {
  // The first row that breaks the chain (index order, prev_hash link, own hash), as
  // storage/chain.py names it: deleted, reordered, inserted or edited.
  let prev = GENESIS;
  for (let pos = 0; pos < rows.length; pos++) {
    const row = rows[pos];
    const defect = rowDefect(row);
    if (defect) return [pos, `row ${pos} is unreadable: ${defect}`];
    const idx = row.index;
    if (!isInt(idx) || idx !== pos) {
      if (pos >= 1 && idx === pos - 1 && row.hash === rows[pos - 1].hash) return [pos, `row ${pos - 1} appears twice (a copy stands at position ${pos})`];
      if (pos >= 2 && idx === pos - 1 && row.prev_hash === rows[pos - 2].hash) return [pos - 1, `row ${pos - 1} was inserted: the next row links past it to row ${pos - 2}`];
      if (!isInt(idx)) return [pos, `row ${pos}: index field is not an integer`];
      if (row.prev_hash === (pos === 0 ? GENESIS : rows[pos - 1].hash)) return [pos, `row ${pos}: index field changed (it says it is row ${idx})`];
      if (idx > pos) {
        if (rows.slice(pos + 1).some((r) => r.index === pos)) return [pos, `rows reordered: row ${idx} stands where row ${pos} should`];
        return [pos, `row ${pos} is missing (deleted): the log jumps to row ${idx}`];
      }
      return [pos, `row ${idx} out of place at position ${pos} (a row was inserted, duplicated or reordered)`];
    }
    if (row.prev_hash !== prev) {
      if (pos >= 1 && row.prev_hash === rows[pos - 1].prev_hash) return [pos - 1, `row ${pos - 1} was inserted: row ${pos} links to the row before it`];
      return [pos, pos ? `prev_hash does not link to row ${pos - 1}` : "prev_hash is not the genesis hash"];
    }
    if (hashes[pos] !== row.hash) {
      const next = rows[pos + 1];
      if (next && next.prev_hash === hashes[pos]) return [pos, "hash mismatch (its hash field was edited)"];
      return [pos, `hash mismatch (its content was edited: it hashes to ${short(hashes[pos])}, not to its recorded hash ${short(row.hash)})`];
    }
    prev = row.hash;
  }
  return null;
}

async function audit(header, rows) {
  // Every digest first (in parallel), then one walk over the rows, then every draw recomputed.
  const failures = [];
  // at: the row a problem shows at (-1: the header alone); inHeader: the header is at fault (a
  // header/setup disagreement shows at row 0); rank 0: the chain, reported first at its row.
  const fail = (at, problem, rank = 1, inHeader = at < 0) => failures.push({ at, rank, seq: failures.length, problem, inHeader });
  const good = rows.map((r) => !rowDefect(r));
  const [hashes, seedDigests, secretDigests, scenarioDigest] = await Promise.all([
    Promise.all(rows.map((r, k) => (good[k] ? rowHash(r.prev_hash, r) : null))),
    Promise.all(rows.map((r, k) => {
      const p = good[k] && isObj(r.payload) ? r.payload : {};
      const seed = r.kind === "reveal" ? p.seed : r.kind === "reveal-hidden" ? p.hidden_seed : null;
      return typeof seed === "string" && HEX64.test(seed) ? commitmentOf(seed) : null;
    })),
    Promise.all(rows.map((r, k) => {
      const entries = good[k] && Array.isArray(r.secret) ? r.secret : [];
      const texts = entries.length ? raws(r[RAW].secret) : [];
      return Promise.all(entries.map((e, i) =>
        isObj(e) && typeof e.salt === "string" && "value" in e ? valueCommitment(e.salt, rawOf(texts[i], "value")) : null));
    })),
    typeof header.scenario_text === "string" ? sha256(utf8.encode(header.scenario_text)) : null,
  ]);

  // the header: format, game uid, row count, head hash
  let uid = null;
  if ("_error" in header) fail(-1, `header unreadable: ${header._error}`);
  else {
    if (header.format !== FORMAT) fail(-1, `header: unknown export format ${JSON.stringify(header.format)}`);
    if (typeof header.game_uid === "string" && header.game_uid && !header.game_uid.includes("|")) uid = header.game_uid;
    else fail(-1, "header: no usable game_uid (rolls cannot be recomputed)");
    const declared = header.rows, n = rows.length;
    if (declared !== n) {
      if (isInt(declared) && declared > n) fail(n, `row ${n} is missing: the header says ${declared} rows, the file holds ${n}`);
      else if (isInt(declared)) fail(declared, `row ${declared} is beyond the header's ${declared} rows (appended after the export?)`);
      else fail(-1, "header: row count missing");
    }
    const last = n ? rows[n - 1].hash : undefined;
    if (n && header.head_hash !== last && !(isInt(declared) && declared > n)) {
      const q = rows.findIndex((r) => r.hash === header.head_hash);
      if (q < 0) fail(n - 1, `head hash mismatch: the header's head hash is not row ${n - 1}'s hash`);
      else if (!(isInt(declared) && declared === q + 1)) fail(q + 1, `rows from ${q + 1} on come after the header's head hash (row ${q}'s)`);
    }
    if (!n) fail(0, "the log is empty (no setup row)");
  }
  const chain = chainFailure(rows, hashes);
  if (chain) fail(chain[0], chain[1], 0);

  // the walk: epochs, salts, draws in sequence, reveals, hidden draws and values
  const epochs = new Map();
  let hiddenCommitment = null, hiddenCommitmentRow = null, hiddenSeed = null;
  const rolls = []; // every draw: {row, side, purpose, kind, epoch, n, faces, value, status}
  const pending = []; // the draws to recompute: [roll, seed]
  const secrets = new Map(); // row -> Map(commitment -> raw value text)
  const hiddenValues = [];
  const commitments = [];
  const openEpoch = (pos, k, what) => {
    const ep = isInt(k) ? epochs.get(k) : undefined;
    if (!ep) { fail(pos, `${what} for epoch ${JSON.stringify(k)}, which has no commitment before it`); return null; }
    if (ep.revealRow !== null) { fail(pos, `${what} in epoch ${k} after its seed was revealed at row ${ep.revealRow}`); return null; }
    return ep;
  };
  const handlers = {
    setup(pos, row, p) {
      if (pos !== 0) return fail(pos, "a second setup row");
      if (!isObj(p) || "_error" in header) return;
      if (p.scenario_sha256 != null && typeof header.scenario_text === "string" && scenarioDigest !== p.scenario_sha256) fail(0, "header: scenario_text does not match the setup row's scenario_sha256", 1, true);
      for (const k of ["game_uid", "name", "game", "sandbox"]) if (k in p && k in header && p[k] !== header[k]) fail(0, `header: ${k} does not match the setup row`, 1, true);
    },
    epoch(pos, row, p) {
      const k = p.epoch;
      if (k !== epochs.size + 1) return fail(pos, `epochs must be numbered 1, 2, ... in order (expected ${epochs.size + 1}, found ${JSON.stringify(k)})`);
      if (!HEX64.test(p.commitment)) return fail(pos, `epoch ${k} commitment is not a SHA-256 hex digest`);
      const turn = isInt(p.turn) ? p.turn : null; // the turn the epoch's dice belong to (none: a game without turns)
      epochs.set(k, { number: k, turn, row: pos, commitment: p.commitment, salts: [], firstDraw: null, lastN: 0, rolls: [], revealRow: null, seed: null });
      commitments.push({ what: `epoch ${k}`, turn, row: pos, at: row.created_at, commitment: p.commitment, revealed: null });
      const hc = p.hidden_commitment;
      if (hc == null) return;
      if (!HEX64.test(hc)) fail(pos, "hidden commitment is not a SHA-256 hex digest");
      else if (hiddenCommitment === null) {
        [hiddenCommitment, hiddenCommitmentRow] = [hc, pos];
        commitments.push({ what: "hidden seed", row: pos, at: row.created_at, commitment: hc, revealed: null });
      } else if (hc !== hiddenCommitment) fail(pos, `the hidden seed's commitment changed (it was committed at row ${hiddenCommitmentRow})`);
    },
    salt(pos, row, p) {
      const ep = openEpoch(pos, p.epoch, "salt");
      if (!ep) return;
      if (typeof p.salt !== "string") return fail(pos, "salt is not text");
      if (ep.firstDraw !== null) return fail(pos, `salt after epoch ${p.epoch}'s first roll (row ${ep.firstDraw})`);
      ep.salts.push(rawOf(row[RAW].payload, "salt"));
    },
    reveal(pos, row, p) {
      const ep = isInt(p.epoch) ? epochs.get(p.epoch) : undefined;
      if (!ep) return fail(pos, `reveal of epoch ${JSON.stringify(p.epoch)}, which has no commitment before it`);
      if (ep.revealRow !== null) return fail(pos, `epoch ${p.epoch} revealed twice (first at row ${ep.revealRow})`);
      ep.revealRow = pos;
      if (!HEX64.test(p.seed)) return fail(pos, `epoch ${p.epoch}'s revealed seed is not 64 hex digits`);
      if (seedDigests[pos] !== ep.commitment) return fail(pos, `epoch ${p.epoch}'s revealed seed does not match its commitment (row ${ep.row})`);
      ep.seed = p.seed;
      commitments.find((c) => c.what === `epoch ${ep.number}`).revealed = { row: pos, at: row.created_at };
      for (const r of ep.rolls) pending.push([r, ep.seed]);
    },
    "reveal-hidden"(pos, row, p) {
      if (hiddenCommitment === null) return fail(pos, "hidden seed revealed but never committed");
      if (hiddenSeed !== null) return fail(pos, "hidden seed revealed twice");
      if (!HEX64.test(p.hidden_seed)) return fail(pos, "revealed hidden seed is not 64 hex digits");
      if (seedDigests[pos] !== hiddenCommitment) return fail(pos, `revealed hidden seed does not match its commitment (row ${hiddenCommitmentRow})`);
      hiddenSeed = p.hidden_seed;
      commitments.find((c) => c.what === "hidden seed").revealed = { row: pos, at: row.created_at };
    },
    undo(pos, row, p) {
      const t = p.targets;
      if (!Array.isArray(t) || !t.every((x) => isInt(x) && x >= 0 && x < pos && isObj(rows[x]) && rows[x].kind === "order")) fail(pos, "undo must name earlier order rows");
    },
    rewind(pos, row, p) { if (!isInt(p.to) || p.to < 0 || p.to >= pos) fail(pos, "rewind target is not an earlier row"); },
    moderation(pos, row, p) { // a repair holds the rows it dropped whole: its re-applied orders name them
      if (!isObj(p) || p.action !== "repair") return;
      repaired = { dropped: new Map((Array.isArray(p.dropped_rows) ? p.dropped_rows : []).filter(isObj).map((r) => [r.index, r])), used: new Set(), lastN: new Map() };
    },
  };

  // an order a repair re-applied (`reapplies`): the dropped row's order, once, with exactly its
  // drawn rolls, each of a revealed epoch, numbered after its draws, recomputed from its seed
  let repaired = { dropped: new Map(), used: new Set(), lastN: new Map() };
  const drawnOf = (rolls) => (Array.isArray(rolls) ? rolls : []).filter((r) => !(isObj(r) && r.fixed === true));
  const sameJson = (a, b) => JSON.stringify(a, sortedKeys) === JSON.stringify(b, sortedKeys);
  function sortedKeys(key, value) {
    return isObj(value) ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]])) : value;
  }
  function onReapplied(pos, row, p, side) {
    const at = p.reapplies, src = isInt(at) ? repaired.dropped.get(at) : undefined;
    if (!isObj(src) || src.kind !== "order") return fail(pos, `it re-applies row ${JSON.stringify(at)}, no order row the last repair dropped`);
    if (repaired.used.has(at)) return fail(pos, `row ${at} is re-applied twice`);
    repaired.used.add(at);
    if (["actor", "user", "text"].some((f) => src[f] !== row[f])) return fail(pos, `it is not the order of the dropped row ${at} it names`);
    const mine = drawnOf(p.rolls), theirs = drawnOf(isObj(src.payload) ? src.payload.rolls : []);
    if (!sameJson(mine, theirs)) return fail(pos, `its dice are not the rolls of the dropped row ${at}`);
    for (const rec of Array.isArray(p.rolls) ? p.rolls : []) {
      if (isObj(rec) && rec.fixed === true) onRoll(pos, `row ${pos}`, rec, side);
    }
    for (const rec of mine) {
      const k = isObj(rec) ? rec.epoch : undefined, ep = isInt(k) ? epochs.get(k) : undefined;
      if (!ep || ep.seed === null || rec.hidden || typeof rec.purpose !== "string") return fail(pos, "a re-applied roll is of no epoch whose seed is revealed");
      const last = Math.max(ep.lastN, repaired.lastN.get(k) || 0);
      if (!isInt(rec.n) || rec.n <= last) return fail(pos, `a re-applied roll is numbered out of sequence in epoch ${k}`);
      repaired.lastN.set(k, rec.n);
      const faces = "faces" in rec ? rec.faces : 6;
      const roll = { row: pos, side, purpose: rec.purpose, kind: rec.purpose.split(/\s+/).filter(Boolean)[0] || "?", epoch: k, n: rec.n, faces, value: rec.value, status: "re-applied by a repair", ep };
      rolls.push(roll);
      pending.push([roll, ep.seed]);
    }
  }

  function onRoll(pos, where, rec, side) {
    if (!isObj(rec) || typeof rec.purpose !== "string") return fail(pos, `${where}: not a roll record`);
    const faces = "faces" in rec ? rec.faces : 6, hidden = "hidden" in rec ? rec.hidden : false;
    if (!isInt(faces) || faces < 1 || faces > 65536) return fail(pos, `${where}: not a number of faces`);
    const roll = { row: pos, side, purpose: rec.purpose, kind: rec.purpose.split(/\s+/).filter(Boolean)[0] || "?", epoch: rec.epoch, n: rec.n, faces, value: rec.value, status: "" };
    if (rec.fixed === true) {
      if (!isInt(rec.value) || rec.value < 1 || rec.value > faces) fail(pos, `${where}: fixed roll value is not 1-${faces}`);
      roll.status = "fixed by a moderator (not random)";
      return rolls.push(roll);
    }
    if (typeof hidden !== "boolean") return fail(pos, `${where}: the hidden flag is not true or false`);
    const ep = openEpoch(pos, rec.epoch, "roll");
    if (!ep) return;
    if (!isInt(rec.n) || rec.n !== ep.lastN + 1) {
      fail(pos, `${where}: draw out of sequence in epoch ${ep.number} (expected n ${ep.lastN + 1}, found n ${JSON.stringify(rec.n)})`);
      if (isInt(rec.n)) ep.lastN = Math.max(ep.lastN, rec.n);
      return;
    }
    ep.lastN = rec.n;
    if (ep.firstDraw === null) ep.firstDraw = pos;
    roll.ep = ep;
    rolls.push(roll);
    if (hidden) {
      roll.hidden = true;
      roll.status = "hidden until the game ends";
      if (hiddenCommitment === null) return fail(pos, `${where}: hidden draw before any hidden seed was committed`);
      if (hiddenSeed !== null) return fail(pos, `${where}: hidden draw after the hidden seed was revealed`);
      if (rec.value == null && !HEX64.test(rec.commitment)) return fail(pos, `${where}: hidden draw without a commitment`);
      roll.commitment = rec.commitment;
      return;
    }
    if (!isInt(rec.value) || rec.value < 1 || rec.value > faces) return fail(pos, `${where}: roll value is not 1-${faces}`);
    roll.status = `${checkableAfter(ep.turn, ep.number)} (its seed is revealed when the epoch closes)`;
    ep.rolls.push(roll);
  }

  function onSecret(pos, row) {
    const payload = isObj(row.payload) ? row.payload : {};
    const committed = new Set([
      ...(Array.isArray(payload.hidden) ? payload.hidden : []),
      ...(Array.isArray(payload.rolls) ? payload.rolls.filter(isObj).map((r) => r.commitment) : []),
    ]);
    const found = secrets.get(pos) || new Map();
    secrets.set(pos, found);
    if (!Array.isArray(row.secret)) return fail(pos, "secret is not a list");
    row.secret.forEach((entry, k) => {
      const c = isObj(entry) ? entry.commitment : undefined;
      if (!committed.has(c)) return fail(pos, "a disclosed hidden value names no commitment of this row");
      if (secretDigests[pos][k] !== c) return fail(pos, "a hidden value does not match its commitment");
      found.set(c, rawOf(raws(row[RAW].secret)[k], "value"));
    });
  }

  rows.forEach((row, pos) => {
    if (!good[pos]) return; // the chain check names it
    const extra = Object.keys(row).filter((k) => !ROW_KEYS.has(k));
    if (extra.length) fail(pos, extra.length === 1 ? `field ${extra[0]} is no part of a log row` : `fields ${extra.join(", ")} are no part of a log row`);
    const { kind, payload } = row;
    if (pos === 0 && kind !== "setup") fail(0, `row 0 is not the setup row (found ${JSON.stringify(kind)})`);
    if (PAYLOAD_KINDS.has(kind) && !isObj(payload)) return fail(pos, `${kind} row without a payload object`);
    if (Object.hasOwn(handlers, kind)) handlers[kind](pos, row, payload);
    if (isObj(payload)) {
      if (kind === "order" && "reapplies" in payload) onReapplied(pos, row, payload, typeof row.actor === "string" && row.actor ? row.actor : "-");
      else if ("rolls" in payload) {
        const side = typeof row.actor === "string" && row.actor ? row.actor : "-";
        if (!Array.isArray(payload.rolls)) fail(pos, "rolls is not a list");
        else payload.rolls.forEach((rec, k) => onRoll(pos, `row ${pos}, roll ${k + 1}`, rec, side));
      }
      if ("hidden" in payload) {
        if (!Array.isArray(payload.hidden) || !payload.hidden.every((c) => HEX64.test(c))) fail(pos, "hidden values must be listed as commitments");
        else for (const c of payload.hidden) hiddenValues.push([pos, c]);
      }
    }
    if (row.secret != null) onSecret(pos, row);
  });

  // the end of the game: every hidden draw recomputed with the hidden seed, every hidden value shown
  const hiddenDraws = rolls.filter((r) => r.hidden);
  if (hiddenSeed !== null) {
    for (const r of hiddenDraws) {
      const raw = r.value != null ? JSON.stringify(r.value) : (secrets.get(r.row) || new Map()).get(r.commitment);
      if (raw === undefined) { fail(r.row, `hidden draw ${JSON.stringify(r.purpose)} not disclosed although the game ended`); continue; }
      r.value = JSON.parse(raw);
      pending.push([r, hiddenSeed]);
    }
    for (const [pos, c] of hiddenValues) if (!(secrets.get(pos) || new Map()).has(c)) fail(pos, `hidden value ${c.slice(0, 12)}... not disclosed although the game ended`);
  }
  let checked = 0;
  if (uid !== null) {
    const digests = new Map();
    for (const ep of epochs.values()) digests.set(ep.number, saltDigest(ep.salts));
    await Promise.all(pending.map(async ([r, seed]) => {
      const expected = await rollValue(seed, uid, r.epoch, r.n, r.purpose, await digests.get(r.epoch), r.faces);
      checked++;
      const label = r.faces === 6 ? "" : `, d${r.faces}`;
      if (expected !== r.value) {
        r.status = `WRONG: the seed gives ${expected}`;
        fail(r.row, `${r.hidden ? "hidden draw" : "roll"} does not recompute (${JSON.stringify(r.purpose)}${label}, epoch ${r.epoch}, n ${r.n}): expected ${expected}, found ${JSON.stringify(r.value)}`);
      } else r.status = r.hidden ? "hidden draw, recomputed at the game's end" : "recomputed from the revealed seed";
    }));
  }
  failures.sort((a, b) => a.at - b.at || a.rank - b.rank || a.seq - b.seq);
  const sealed = hiddenSeed === null ? hiddenDraws.length + hiddenValues.length : 0;
  return {
    ok: failures.length === 0, first: failures[0] || null, failures, rows, hashes, rolls, commitments, checked, sealed,
    revealed: [...epochs.values()].filter((e) => e.seed !== null).length,
    open: [...epochs.values()].filter((e) => e.revealRow === null).map((e) => ({ number: e.number, turn: e.turn, row: e.row, firstDraw: e.firstDraw, rolls: e.rolls.length })),
    hiddenChecked: hiddenSeed === null ? 0 : hiddenDraws.length + hiddenValues.length,
  };
}

function verdictText(report, header) {
  const f = report.first;
  if (f) {
    const problem = f.problem.replace(new RegExp(`^row ${f.at}: `), "").replace(/^header: /, "");
    return f.inHeader ? `FAILED in the header: ${problem}` : `FAILED at row ${f.at}: ${problem}`;
  }
  let text = `VERIFIED: ${report.rows.length} rows; the chain holds to head hash ${header.head_hash}; ${report.revealed === 1 ? "1 revealed seed matches its commitment" : `${report.revealed} revealed seeds match their commitments`}; ${counted(report.checked, "draw")} recomputed exactly`;
  if (report.hiddenChecked) text += `; the hidden seed is revealed and ${counted(report.hiddenChecked, "hidden draw or value", "hidden draws and values")} checked`;
  if (report.sealed) text += `; ${counted(report.sealed, "hidden draw or value", "hidden draws and values")} sealed until the game ends`;
  for (const e of report.open) {
    text += `; epoch ${e.number}${e.turn === null ? "" : ` (turn ${e.turn})`} is open: its rows are chained and its commitment was posted at row ${e.row}`;
    text += e.firstDraw === null ? ", before any roll" : `, before its first roll (row ${e.firstDraw}); its ${counted(e.rolls, "roll")} ${e.rolls === 1 ? "is" : "are"} ${checkableAfter(e.turn, e.number)}`;
  }
  return text + ".";
}

function checkableAfter(turn, epoch) {
  return turn === null ? `checkable once epoch ${epoch} closes` : `checkable after turn ${turn}`;
}

function plainText(report) {
  // The verdict in plain words, for a player: what it means for the dice, before the technical line.
  return plainSentences(report).join(" ");
}

function plainSentences(report) {
  // [the verdict itself, what it leaves for later...]
  const f = report.first;
  if (f && f.inHeader) return ["This file does NOT check out: its first line (the header) does not match the log it carries. Do not rely on it: ask for a fresh page and show this one to the game's moderators."];
  if (f) return [`This log does NOT check out at row ${f.at}: something there was changed after it was posted, or does not match what was fixed before the dice were rolled.`, `Nothing from row ${f.at} on can be trusted: show this page to the game's moderators (the details are below).`];
  const random = report.rolls.filter((r) => !r.status.startsWith("fixed")).length;
  const fixed = report.rolls.length - random;
  const out = [random ? "Every die in this game so far was fixed before it was rolled and is recorded unchanged." : "No die has been rolled in this game yet; every row of its log is recorded unchanged."];
  for (const e of report.open.filter((o) => o.rolls)) {
    const which = e.turn === null ? `of dice epoch ${e.number}` : `of turn ${e.turn}`;
    const when = e.turn === null ? `once that epoch closes` : `after turn ${e.turn}`;
    out.push(`The ${counted(e.rolls, "roll")} ${which} can be recomputed ${when}, when their secret seed is revealed: ask for a new page then. Until then this page shows they were fixed in advance and not changed since.`);
  }
  if (report.sealed) out.push(`${counted(report.sealed, "hidden draw or value", "hidden draws and values")} ${report.sealed === 1 ? "stays" : "stay"} sealed until the game ends; a page asked for then checks ${report.sealed === 1 ? "it" : "them"} too.`);
  if (fixed) out.push(`${counted(fixed, "roll was", "rolls were")} set by a moderator, not rolled (marked in the table).`);
  return out;
}

// ---------------------------------------------------------------- 4. statistics (as storage/audit/stats.py)
function erfc(x) {
  // Chebyshev fit, fractional error below 1.2e-7 (Numerical Recipes' erfcc).
  const z = Math.abs(x), t = 1 / (1 + z / 2);
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}

function chi2sf(x, df) {
  // P(X >= x), chi-square with integer df: the closed forms of storage/audit/stats.py, in log space.
  if (x <= 0) return 1;
  const series = (logFirst, ratios) => { let logT = logFirst, total = Math.exp(logT); for (const r of ratios) { logT += Math.log(r); total += Math.exp(logT); } return total; };
  let p;
  if (df % 2) {
    const m = (df - 1) / 2, ratios = [];
    for (let k = 2; k <= m; k++) ratios.push(x / (2 * k - 1));
    p = erfc(Math.sqrt(x / 2)) + (m ? series(0.5 * Math.log((2 * x) / Math.PI) - x / 2, ratios) : 0);
  } else {
    const ratios = [];
    for (let k = 1; k < df / 2; k++) ratios.push(x / 2 / k);
    p = series(-x / 2, ratios);
  }
  return Math.min(1, Math.max(0, p));
}

function faceStats(values, faces) {
  const counts = new Array(faces).fill(0);
  for (const v of values) counts[v - 1]++;
  const n = values.length, expected = n / faces;
  const chi2 = n && faces > 1 ? counts.reduce((s, c) => s + (c - expected) ** 2, 0) / expected : 0;
  return { faces, counts, n, expected, chi2, p: n && faces > 1 ? chi2sf(chi2, faces - 1) : 1 };
}

// ---------------------------------------------------------------- 5. the page
const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, attrs || {});
  for (const c of children) e.append(c instanceof Node ? c : String(c));
  return e;
}
function table(heads, rows) {
  // Each cell carries its column's name: a narrow screen shows each row as a card of "name value".
  const cell = (c, k) => { const td = el("td", {}, c); td.dataset.label = heads[k]; return td; };
  return el("table", {}, el("tr", {}, ...heads.map((h) => el("th", {}, h))), ...rows.map((r) => el("tr", {}, ...r.map(cell))));
}

function showCommitments(report) {
  $("commitments").replaceChildren(table(["commitment", "row", "posted at", "revealed"], report.commitments.map((c) => [
    `${c.what}: ${c.commitment}`, c.row, c.at, c.revealed ? `row ${c.revealed.row}, ${c.revealed.at}` : c.what === "hidden seed" ? "not yet: when the game ends" : `not yet: ${checkableAfter(c.turn, c.what.split(" ")[1])}`])));
}

function showStatistics(report) {
  const upto = report.first ? Math.max(report.first.at, 0) : Infinity;
  const trusted = report.rolls.filter((r) => r.row < upto && !r.hidden && !r.status.startsWith("fixed") && isInt(r.value));
  const groups = new Map();
  for (const r of trusted) {
    const key = `${r.side} d${r.faces}`;
    if (!groups.has(key)) groups.set(key, { side: r.side, faces: r.faces, values: [] });
    groups.get(key).values.push(r.value);
  }
  const box = $("statistics");
  box.replaceChildren(el("p", {}, report.first ? (upto > 0 ? `Only rows 0-${upto - 1}, before the failure, are counted: nothing after it is trusted.` : "No row can be trusted: no statistics.") : "Random rolls only (fixed and hidden draws are not counted); chi-square against a fair die, df = faces - 1."));
  if (report.first && upto === 0) return;
  for (const g of [...groups.values()].sort((a, b) => a.side.localeCompare(b.side) || a.faces - b.faces)) {
    const s = faceStats(g.values, g.faces);
    const most = Math.max(...s.counts, 1);
    const bars = s.counts.map((c, k) => el("div", { className: "bar" }, el("span", {}, `${k + 1}`), el("i", { style: `width:${(60 * c) / most}%` }), ` ${c} (expected ${s.expected.toFixed(1)})`));
    box.append(el("section", { className: "side" }, el("h3", {}, `${g.side}: d${g.faces}, ${counted(s.n, "roll")}`), ...(g.faces <= 20 ? bars : []),
      el("p", {}, `chi-square ${s.chi2.toFixed(2)}, df ${g.faces - 1}, p = ${s.p.toFixed(3)}` + (s.n < 5 * g.faces ? ` (with fewer than ${5 * g.faces} rolls a p-value says little)` : ""))));
  }
}

function showRolls(report) {
  const upto = report.first ? Math.max(report.first.at, 0) : Infinity;
  const sides = [...new Set(report.rolls.map((r) => r.side))].sort();
  const kinds = [...new Set(report.rolls.map((r) => r.kind))].sort();
  const option = (v) => el("option", { value: v }, v || "all");
  $("side-filter").replaceChildren(...["", ...sides].map(option));
  $("purpose-filter").replaceChildren(...["", ...kinds].map(option));
  const draw = () => {
    const side = $("side-filter").value, kind = $("purpose-filter").value;
    const shown = report.rolls.filter((r) => (!side || r.side === side) && (!kind || r.kind === kind));
    $("rolls").replaceChildren(table(["row", "side", "purpose", "epoch", "n", "die", "value", "check"], shown.map((r) => [
      r.row, r.side, r.purpose, r.epoch ?? "-", r.n ?? "-", `d${r.faces}`, r.value ?? "?", r.row >= upto ? "NOT TRUSTED (after the failure)" : r.status])));
  };
  $("side-filter").onchange = draw;
  $("purpose-filter").onchange = draw;
  draw();
}

const SHORT_HASH = 20; // hex characters a post shows of a hash (80 bits: too long to grind)

function checkHead(report) {
  // A head hash saved from a post ("Log row 12, head hash 3f2a9c01d4e87b6a5f10") against the
  // log: whole, or a prefix of at least SHORT_HASH hex characters, as posts show it.
  const text = $("head-input").value, row = text.match(/(?:row|строка журнала|строка)\s+(\d+)/i);
  const runs = (text.match(/\b[0-9a-f]{8,}\b/gi) || []).sort((a, b) => b.length - a.length);
  const hash = runs.length ? runs[0].toLowerCase().slice(0, 64) : "";
  const out = $("head-check");
  if (!hash) { out.textContent = text.trim() ? `No head hash (at least its first ${SHORT_HASH} hex characters) in what you pasted.` : ""; return; }
  if (hash.length < SHORT_HASH) { out.textContent = `The head hash ${hash} is only ${hash.length} hex characters long: paste at least its first ${SHORT_HASH}, as a post shows it.`; return; }
  const held = (r) => typeof r.hash === "string" && r.hash.startsWith(hash);
  const at = row && report.rows[Number(row[1])] && held(report.rows[Number(row[1])]) ? Number(row[1]) : report.rows.findIndex(held);
  const upto = report.first ? report.first.at : Infinity;
  if (row && Number(row[1]) !== at) out.textContent = `NOT HELD: row ${row[1]} of this log has another hash` + (at >= 0 ? ` (the hash is row ${at}'s)` : "") + ".";
  else if (at < 0) out.textContent = "NOT HELD: no row of this log has this hash: the log you saw it in is not this one.";
  else if (at >= upto) out.textContent = `Row ${at} has this hash, but the chain fails at row ${upto}: it proves nothing.`;
  else out.textContent = `HELD: the log still holds this head hash at row ${at} (posted ${report.rows[at].created_at}); every row up to it is unchanged.`;
}

function fromBase64(b64) {
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(b64.replace(/\s+/g, "")); // newer browsers
  const text = atob(b64);
  const bytes = new Uint8Array(text.length);
  for (let k = 0; k < text.length; k++) bytes[k] = text.charCodeAt(k);
  return bytes;
}

async function main() {
  const verdict = $("verdict");
  if (!(globalThis.crypto && crypto.subtle)) {
    $("plain").textContent = "This browser cannot run the check: open this file in a current Firefox, Chrome, Edge or Safari.";
    verdict.textContent = "NO WEBCRYPTO: this browser offers no WebCrypto (crypto.subtle), so this page cannot check anything. Open the file in a current Firefox, Chrome, Edge or Safari.";
    verdict.className = "bad";
    $("result").className = "bad";
    return;
  }
  const started = performance.now();
  const bytes = fromBase64($("export").textContent);
  const [header, rows] = readExport(bytes);
  const report = await audit(header, rows);
  const ms = performance.now() - started;
  const [first, ...rest] = plainSentences(report);
  $("plain").replaceChildren(el("strong", {}, first), ...(rest.length ? [" " + rest.join(" ")] : []));
  verdict.textContent = verdictText(report, header);
  verdict.className = report.ok ? "ok" : "bad";
  $("result").className = report.ok ? "ok" : "bad";
  verdict.dataset.ms = ms.toFixed(1);
  verdict.dataset.rows = rows.length;
  $("game").textContent = `${header.name ?? "?"} (${header.game ?? "?"}), game uid ${header.game_uid ?? "?"}, head hash ${header.head_hash ?? "?"}`;
  $("timing").textContent = `Checked in this browser in ${ms.toFixed(0)} ms.`;
  $("more").textContent = report.failures.length > 1 ? `${counted(report.failures.length - 1, "more problem", "more problems")} after it; the first one counts.` : "";
  showCommitments(report);
  showStatistics(report);
  showRolls(report);
  $("head-input").oninput = () => checkHead(report);
  $("save").onclick = () => {
    const a = el("a", { href: URL.createObjectURL(new Blob([bytes], { type: "application/x-ndjson" })), download: `${header.name || "game"}-audit.jsonl` });
    a.click();
  };
}

globalThis.pbemAudit = { rollValue, faceFromDigest, Draws, audit, readExport, verdictText, plainText, chi2sf, saltDigestOf: (salts) => saltDigest(salts.map((s) => JSON.stringify(s))) };
main().catch((e) => {
  const v = $("verdict");
  $("plain").textContent = "The check itself broke in this browser: nothing is verified.";
  v.textContent = `FAILED in the page: ${e && e.message}`;
  v.className = $("result").className = "bad";
});
