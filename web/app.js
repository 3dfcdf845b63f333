// The explorer page: every answer comes from the server's API (the command
// line's texts and numbers); this file only asks and draws.
"use strict";

const $ = (id) => document.getElementById(id);

const state = { mode: "layout", tab: "print", drawn: {}, pictures: {} };
// What the browser test reads: the expression last drawn, and how long it took.
window.layoutx = { drawn: "", error: "", lastMs: 0, timings: [], state };
// Each answer shown: the event lets a test wait for it without polling.
function shown(text) {
  window.layoutx.drawn = text;
  window.dispatchEvent(new Event("layoutx-drawn"));
}

// ---- the API ----------------------------------------------------------------

const inflight = {};
// POSTs a form to /api/CALL; a newer call of the same slot aborts the older.
// The static page (WebAssembly) has its engine in window.layoutxEngine and
// asks it the same form instead, with the same answer.
async function api(call, params, slot = call) {
  if (window.layoutxEngine) {
    const reply = (await window.layoutxEngine).answer(call, new URLSearchParams(params).toString());
    return { ok: reply.status === 200, status: reply.status, ...JSON.parse(reply.body) };
  }
  if (inflight[slot]) inflight[slot].abort();
  const ctl = new AbortController();
  inflight[slot] = ctl;
  const body = new URLSearchParams(params);
  const res = await fetch("api/" + call, { method: "POST", body, signal: ctl.signal });
  const answer = await res.json();
  if (inflight[slot] === ctl) delete inflight[slot];
  return { ok: res.ok, status: res.status, ...answer };
}
const aborted = (e) => e && e.name === "AbortError";

// ---- drawing pictures ---------------------------------------------------------
//
// A picture is painted on one canvas per slot (thousands of DOM cells cost
// hundreds of milliseconds of layout per redraw; a canvas costs a few). What
// was painted is kept, cell by cell with its place, for the tooltip, the
// marks and the browser test.

const LABEL = 2;  // row labels take this many cells' width

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

// Each cell's place in pixels and the scale: cells shrink for wide pictures.
function geometry(picture) {
  let minTop = 0, minLeft = 0, maxBottom = 0, maxRight = 0, widest = 0;
  for (const p of picture.panels) {
    const labelRows = p.col_labels.length ? 1 : 0, labelCols = p.row_labels.length ? LABEL : 0;
    minTop = Math.min(minTop, p.top - labelRows - (p.title ? 1 : 0));
    minLeft = Math.min(minLeft, p.left - labelCols);
    maxBottom = Math.max(maxBottom, p.top + p.rows);
    maxRight = Math.max(maxRight, p.left + p.cols);
    widest = Math.max(widest, p.cols);
  }
  const cell = widest <= 32 ? 30 : Math.max(12, Math.min(30, Math.floor(1400 / (maxRight - minLeft))));
  return { minTop, minLeft, cell, width: (maxRight - minLeft) * cell + 2, height: (maxBottom - minTop) * cell + 2 };
}

// A layout's numbers as the server sends them while typing (picture=grid:
// columns of numbers) made into the cells the rest of the page reads:
// [row, col, text, hover, fill, white_text, index, offset, bank].
function gridCells(picture) {
  for (const p of picture.panels) {
    if (!p.grid) continue;
    const { fills, fill, offset, bank } = p.grid, cells = new Array(offset.length);
    for (let k = 0; k < offset.length; ++k) {
      const r = Math.floor(k / p.cols), c = k - r * p.cols, [colour, white] = fills[fill[k]];
      cells[k] = [r, c, String(offset[k]), "", colour, white, r + p.rows * c, offset[k], bank[k]];
    }
    p.cells = cells;
    delete p.grid;
  }
  return picture;
}

function drawPicture(host, picture, slot) {
  const g = geometry(picture);
  const legendHeight = picture.legend.length ? 22 + 16 * Math.ceil(picture.legend.length / 8) : 0;
  let canvas = host.querySelector("canvas");
  if (!canvas) {
    host.innerHTML = '<canvas></canvas><div class="cursor" hidden></div><div class="legend"></div>';
    canvas = host.querySelector("canvas");
  }
  canvas.hidden = false;
  // The canvas is kept from key to key: a new one (or a new size) costs a
  // new backing store, about as long as painting all the cells.
  const ratio = window.devicePixelRatio || 1, width = Math.ceil(g.width * ratio), height = Math.ceil(g.height * ratio);
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
    canvas.style.width = g.width + "px";
    canvas.style.height = g.height + "px";
    host.style.width = g.width + "px";
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, g.width, g.height);
  const drawn = { picture, g, panels: [], marks: {} };
  const c = g.cell;
  const font = Math.max(7, Math.min(12, Math.floor(c * 0.4)));
  picture.panels.forEach((p) => {
    const x0 = (p.left - g.minLeft) * c + 1, y0 = (p.top - g.minTop) * c + 1;
    const place = new Int32Array(p.rows * p.cols).fill(-1);
    // fills, then the cell grid, then the thick block edges, then the text
    const byFill = new Map();  // one fillStyle per colour: setting it parses the colour
    for (let k = 0; k < p.cells.length; ++k) {
      const cell = p.cells[k];
      place[cell[0] * p.cols + cell[1]] = k;
      let list = byFill.get(cell[4]);
      if (!list) byFill.set(cell[4], (list = []));
      list.push(cell);
    }
    for (const [fill, list] of byFill) {
      ctx.fillStyle = fill;
      for (const cell of list) ctx.fillRect(x0 + cell[1] * c, y0 + cell[0] * c, c, c);
    }
    ctx.strokeStyle = "#9aa1ad";
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let r = 0; r <= p.rows; ++r) { ctx.moveTo(x0, y0 + r * c + 0.5); ctx.lineTo(x0 + p.cols * c, y0 + r * c + 0.5); }
    for (let j = 0; j <= p.cols; ++j) { ctx.moveTo(x0 + j * c + 0.5, y0); ctx.lineTo(x0 + j * c + 0.5, y0 + p.rows * c); }
    ctx.stroke();
    ctx.strokeStyle = "#1d2330";
    for (const [h, at, level] of p.rules) {
      ctx.lineWidth = 1 + Math.min(level, 3);
      ctx.beginPath();
      if (h) { ctx.moveTo(x0, y0 + at * c); ctx.lineTo(x0 + p.cols * c, y0 + at * c); }
      else { ctx.moveTo(x0 + at * c, y0); ctx.lineTo(x0 + at * c, y0 + p.rows * c); }
      ctx.stroke();
    }
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    // The generic family alone: a list of families (ui-monospace first) is
    // looked up again at each fillText, which doubles the text's time.
    ctx.font = `${font}px monospace`;
    for (const white of [0, 1]) {
      ctx.fillStyle = white ? "#fff" : "#1d2330";
      for (const cell of p.cells) {
        if (cell[5] !== white) continue;
        const text = cell[2], cx = x0 + cell[1] * c + c / 2, cy = y0 + cell[0] * c + c / 2;
        if (!text.includes("\n")) { ctx.fillText(text, cx, cy); continue; }
        const lines = text.split("\n");
        lines.forEach((l, i) => ctx.fillText(l, cx, cy + (i - (lines.length - 1) / 2) * (font + 1)));
      }
    }
    ctx.fillStyle = "#6b7384";
    ctx.font = `${Math.max(7, font - 1)}px monospace`;
    p.col_labels.forEach((l, j) => ctx.fillText(l, x0 + j * c + c / 2, y0 - c / 2, c));
    ctx.textAlign = "right";
    p.row_labels.forEach((l, i) => ctx.fillText(l, x0 - 4, y0 + i * c + c / 2, LABEL * c - 4));
    if (p.title) {
      ctx.textAlign = "left";
      ctx.font = "600 13px system-ui, sans-serif";
      ctx.fillText(p.title, x0, y0 - (p.col_labels.length ? 1.5 : 0.5) * c);
    }
    drawn.panels.push({ p, x0, y0, place });
  });
  const legend = host.querySelector(".legend");
  const legendHtml = picture.legend.length ? `<b>${escapeHtml(picture.legend_title)}</b>` +
    picture.legend.map((l) => `<span><i style="background:${l.fill}"></i>${escapeHtml(l.label)}</span>`).join("") : "";
  if (legend.dataset.html !== legendHtml) { legend.innerHTML = legendHtml; legend.dataset.html = legendHtml; }
  legend.hidden = false;
  host.style.height = g.height + legendHeight + "px";
  host.dataset.slot = slot;
  state.drawn[slot] = drawn;
  state.pictures[slot] = picture;
  host.querySelector(".cursor").hidden = true;
}

// The canvas stays (hidden) for the next picture.
function clearPicture(host, slot) {
  for (const el of host.children) el.hidden = true;
  host.style.height = "0";
  delete state.pictures[slot];
  delete state.drawn[slot];
}

// Outlines over marked cells (eq's differences, one thread's values): the
// picture is painted again with them.
function paintMarks(slot) {
  const d = state.drawn[slot];
  if (!d) return;
  const host = $(slot === "a" ? "picture-a" : "picture-b");
  drawPicture(host, d.picture, slot);
  const again = state.drawn[slot];
  again.marks = d.marks;
  again.request = d.request;
  again.hovers = d.hovers;
  const ctx = host.querySelector("canvas").getContext("2d"), c = again.g.cell;
  for (const [color, test, dim] of [["#e0245e", d.marks.diff, false], ["#2b6cb0", d.marks.mine, true]]) {
    if (!test) continue;
    for (const { p, x0, y0 } of again.panels)
      for (const cell of p.cells) {
        const x = x0 + cell[1] * c, y = y0 + cell[0] * c;
        if (test(cell)) {
          ctx.strokeStyle = color; ctx.lineWidth = 3; ctx.strokeRect(x + 1.5, y + 1.5, c - 3, c - 3);
        } else if (dim) {
          ctx.fillStyle = "rgba(246,247,249,0.7)"; ctx.fillRect(x, y, c, c);
        }
      }
  }
}

// The cells of a slot as painted: [panel, k, cell] for every cell, in order.
function paintedCells(slot) {
  const d = state.drawn[slot], out = [];
  if (!d) return out;
  d.panels.forEach(({ p }, pi) => p.cells.forEach((cell, k) => out.push([pi, k, cell])));
  return out;
}

// The cell under client point (x, y) of a slot's canvas.
function cellAt(slot, x, y) {
  const d = state.drawn[slot];
  if (!d) return null;
  const c = d.g.cell;
  for (const panel of d.panels) {
    const col = Math.floor((x - panel.x0) / c), row = Math.floor((y - panel.y0) / c);
    if (row < 0 || col < 0 || row >= panel.p.rows || col >= panel.p.cols) continue;
    const k = panel.place[row * panel.p.cols + col];
    if (k >= 0) return { cell: panel.p.cells[k], x: panel.x0 + col * c, y: panel.y0 + row * c, c };
  }
  return null;
}

// What a cell's tooltip says: the server's hover line, one item a line, then
// the owner thread (the row: mode 0 of a (thread, value) layout) and the bank.
function cellText(cell) {
  const [r, c, text, hover, , , index, offset, bank] = cell;
  // until the hover lines come, the numbers at hand
  const lines = hover ? hover.split(/ {2,}/) : offset >= 0 ? [`index ${index}`, `offset ${offset}`] : [];
  if (offset >= 0) {
    lines.push(`row ${r}  column ${c}`);
    lines.push(`owner thread ${r} (mode 0 as the thread)`);
    lines.push(`bank ${bank} (${$("bits").value}-bit elements)`);
  } else if (!hover) {
    lines.push(text.replace(/\n/g, " "));
  }
  return lines.join("\n");
}

// A layout's picture comes without its hover lines (a third of its text);
// they are asked for once, the first time the pointer is over it.
async function fetchHovers(slot) {
  const d = state.drawn[slot];
  if (!d || d.hovers || !d.request) return;
  d.hovers = true;
  const a = await api("grid", { ...d.request, text: "0" }, "hover-" + slot);
  if (!a.ok || state.drawn[slot] !== d) return;
  a.picture.panels.forEach((p, pi) => p.cells.forEach((cell, k) => { d.picture.panels[pi].cells[k][3] = cell[3]; }));
  const tip = $("tooltip");
  if (!tip.hidden && state.pointed && state.pointed.slot === slot) tip.textContent = cellText(state.pointed.cell);
}

function setupHover(host) {
  const tip = $("tooltip");
  const hit = (ev) => {
    const canvas = host.querySelector("canvas");
    if (!canvas || ev.target !== canvas) return null;
    const r = canvas.getBoundingClientRect();
    return cellAt(host.dataset.slot, ev.clientX - r.left, ev.clientY - r.top);
  };
  host.addEventListener("mousemove", (ev) => {
    const h = hit(ev), cursor = host.querySelector(".cursor");
    if (!h) { tip.hidden = true; if (cursor) cursor.hidden = true; return; }
    if (!h.cell[3] && h.cell[7] >= 0) fetchHovers(host.dataset.slot);
    state.pointed = { slot: host.dataset.slot, cell: h.cell };
    tip.textContent = cellText(h.cell);
    tip.hidden = false;
    tip.style.left = ev.clientX + 14 + "px";
    tip.style.top = ev.clientY + 14 + "px";
    Object.assign(cursor.style, { left: h.x + "px", top: h.y + "px", width: h.c + "px", height: h.c + "px" });
    cursor.hidden = false;
  });
  host.addEventListener("mouseleave", () => {
    tip.hidden = true;
    const cursor = host.querySelector(".cursor");
    if (cursor) cursor.hidden = true;
  });
  host.addEventListener("click", (ev) => {
    const h = hit(ev);
    if (!h) return;
    $("cell-info").textContent = cellText(h.cell).replace(/\n/g, "   ");
    if (state.mode === "tv" || state.mode === "atom" || state.mode === "partition") {
      const m = /^T(\d+)/.exec(h.cell[2]);
      if (m) { $("thread").value = m[1]; threadChanged(); }
    }
  });
}

// Cells whose 1-D index eq found different, in both pictures.
function markDiffs(indices) {
  const set = new Set(indices);
  for (const slot of ["a", "b"]) {
    if (!state.drawn[slot]) continue;
    state.drawn[slot].marks = { diff: (cell) => set.has(cell[6]) };
    paintMarks(slot);
  }
}

// One thread's cells (its partition of the tile) stand out; the rest dim.
function markThread() {
  const t = $("thread").value;
  if (!state.drawn.a) return;
  const on = t !== "" && +t >= 0;
  const pattern = new RegExp(`^T${t}(\\D|$)`);
  state.drawn.a.marks = on ? { mine: (cell) => pattern.test(cell[2]) } : {};
  paintMarks("a");
}

// For the browser test: what was painted, and where a cell's centre is on the screen.
window.layoutx.painted = (slot) => paintedCells(slot).map(([, , cell]) => cell);
window.layoutx.marked = (slot) => {
  const d = state.drawn[slot];
  if (!d) return [];
  const tests = Object.values(d.marks);
  return paintedCells(slot).map(([, , cell]) => cell).filter((cell) => tests.some((t) => t(cell)));
};
window.layoutx.cellCentre = (slot, n) => {
  const d = state.drawn[slot], [pi, k] = paintedCells(slot)[n];
  const { x0, y0, p } = d.panels[pi], cell = p.cells[k];
  const r = $(slot === "a" ? "picture-a" : "picture-b").querySelector("canvas").getBoundingClientRect();
  return [r.left + x0 + (cell[1] + 0.5) * d.g.cell, r.top + y0 + (cell[0] + 0.5) * d.g.cell];
};

// ---- showing answers ----------------------------------------------------------

function showError(answer) {
  const box = $("error");
  box.textContent = answer ? answer.error : "";
  box.hidden = !answer;
  window.layoutx.error = answer ? answer.error : "";
}

function showWarnings(list) {
  const box = $("warnings");
  box.textContent = (list || []).join("");
  box.hidden = !(list && list.length);
}

let texts = {};  // the tabs' texts for the current picture
// While typing, the texts below the picture (print's grid is as large as the
// picture) follow once the keys pause: the picture is what each key redraws.
let tabTimer = 0;
function showTab() {
  clearTimeout(tabTimer);
  tabTimer = setTimeout(showTabNow, 150);
}
function showTabNow() {
  $("tab-export").hidden = state.tab !== "export";
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("on", b.dataset.tab === state.tab);
  const text = texts[state.tab];
  $("tab-text").textContent = text === undefined ? "" : text;
  if (text === undefined) fillTab();
}

async function fillTab() {
  const tab = state.tab;
  if (state.mode !== "layout" && state.mode !== "compare") return;
  const expr = $("expr").value.trim();
  if (!expr || (tab !== "info" && tab !== "explain" && tab !== "print")) return;
  try {
    const a = tab === "print" ? await api("grid", { expr, picture: "0" }, "tab") : await api(tab, { expr }, "tab");
    texts[tab] = a.ok ? a.text + (a.error ? "\n" + a.error : "") : a.error;
    if (state.tab === tab) $("tab-text").textContent = texts[tab];
  } catch (e) { if (!aborted(e)) throw e; }
}

// ---- the modes ----------------------------------------------------------------

async function updateLayout() {
  const t0 = performance.now();
  const expr = $("expr").value.trim();
  const color = $("color").value, bits = $("bits").value;
  texts = {};
  if (!expr) {
    showError(null); showWarnings([]); $("value").textContent = "";
    clearPicture($("picture-a"), "a");
    return;
  }
  let a;
  try {
    a = await api("grid", { expr, color, bits, text: "0", picture: "grid" }, "a");
  } catch (e) { if (aborted(e)) return; throw e; }
  if (!a.ok) {
    // Not a layout (an int tuple, a swizzle...) or refused: eval says which, as the command line does.
    let v;
    try { v = await api("evaluate", { expr }, "a"); } catch (e) { if (aborted(e)) return; throw e; }
    clearPicture($("picture-a"), "a");
    if (v.ok) {
      showError(null); showWarnings(v.warnings);
      $("value").textContent = v.value;
      texts.print = a.error;
    } else {
      showError(v); showWarnings([]); $("value").textContent = "";
      texts.print = "";
    }
    shown(expr);
    showTab();
    return;
  }
  const t1 = performance.now();
  showError(null);
  showWarnings(a.warnings);
  $("value").textContent = a.value;
  drawPicture($("picture-a"), gridCells(a.picture), "a");
  state.drawn.a.request = { expr, color, bits };
  window.layoutx.phases = { answer: t1 - t0, draw: performance.now() - t1 };
  if (state.mode === "compare") await updateCompare(); else showTab();
  const ms = performance.now() - t0;
  window.layoutx.lastMs = ms;
  window.layoutx.timings.push(ms);
  shown(expr);
  $("timing").textContent = `${a.picture.panels[0].cells.length} cells in ${ms.toFixed(1)} ms`;
}

async function updateCompare() {
  const exprA = $("expr").value.trim(), exprB = $("expr-b").value.trim();
  const verdict = $("verdict");
  if (!exprA || !exprB) { clearPicture($("picture-b"), "b"); verdict.textContent = ""; showTab(); return; }
  let b, eq;
  try {
    [b, eq] = await Promise.all([
      api("grid", { expr: exprB, color: $("color").value, bits: $("bits").value, text: "0", picture: "grid" }, "b"),
      api("eq", { a: exprA, b: exprB }, "eq"),
    ]);
  } catch (e) { if (aborted(e)) return; throw e; }
  if (!b.ok) { showError(b); clearPicture($("picture-b"), "b"); verdict.textContent = ""; return; }
  drawPicture($("picture-b"), gridCells(b.picture), "b");
  state.drawn.b.request = { expr: exprB, color: $("color").value, bits: $("bits").value };
  if (!eq.ok) { showError(eq); return; }
  // eq's own words: its "equal:" line, and how many indices differ
  const differing = /^differing: (.*)$/m.exec(eq.text);
  verdict.textContent = eq.equal ? "A and B are equal as functions of the index (eq: equal: true)"
                                 : "A and B differ: " + (differing ? differing[1] : "their sizes differ") + " (marked)";
  verdict.className = eq.equal ? "equal" : "differ";
  texts.print = eq.text;
  markDiffs(eq.differing);
  showTab();
}

async function updateTv() {
  const tv = $("tv").value.trim(), tile = $("tile").value.trim(), thr_id = $("thr-id").value.trim();
  if (!tv || !tile) { clearPicture($("picture-a"), "a"); showError(null); return; }
  const params = { tv, tile };
  if (thr_id) params.thr_id = thr_id;
  let a;
  try { a = await api("tv", params, "a"); } catch (e) { if (aborted(e)) return; throw e; }
  if (!a.ok) { showError(a); clearPicture($("picture-a"), "a"); return; }
  showError(null); showWarnings(a.warnings);
  $("value").textContent = "";
  drawPicture($("picture-a"), a.picture, "a");
  markThread();
  texts = { print: a.text };
  shown(tv);
  showTab();
}

async function updateAtom() {
  const name = $("atom").value.trim();
  if (!name) { clearPicture($("picture-a"), "a"); showError(null); return; }
  let a;
  try { a = await api("atom", { name }, "a"); } catch (e) { if (aborted(e)) return; throw e; }
  if (!a.ok) { showError(a); clearPicture($("picture-a"), "a"); return; }
  showError(null);
  $("value").textContent = a.name;
  drawPicture($("picture-a"), a.picture, "a");
  markThread();
  texts = { print: a.text, export: "" };
  shown(name);
  showTab();
}

// partition: the tile's threads drawn, one thread's elements (its partition
// of the tile) marked and listed as `layoutx partition --thread N` lists them.
async function updatePartition() {
  const tensor = $("p-tensor").value.trim(), atom = $("p-atom").value.trim();
  if (!tensor || !atom) { clearPicture($("picture-a"), "a"); showError(null); return; }
  const copy = $("p-kind").value === "copy";
  const params = { tensor, [copy ? "copy" : "mma"]: atom, picture: "1" };
  const given = (name, id) => { const v = $(id).value.trim(); if (v) params[name] = v; };
  given(copy ? "thr" : "atoms", "p-layout");
  if (copy) given("val", "p-val");
  given("operand", "p-operand");
  given("tile", "p-tile");
  given("tile_coord", "p-coord");
  given("bits", "p-bits");
  const t = $("thread").value;
  if (t !== "" && +t >= 0) params.thread = t;
  let a;
  try { a = await api("partition", params, "a"); } catch (e) { if (aborted(e)) return; throw e; }
  if (!a.ok) {
    showError(a); showWarnings([]); clearPicture($("picture-a"), "a");
    texts = { print: "" };
  } else {
    showError(a.picture_error ? { error: a.picture_error } : null);
    showWarnings(a.warnings);
    $("value").textContent = `${a.partition.partitioner}, ${a.partition.threads} threads`;
    if (a.picture) { drawPicture($("picture-a"), a.picture, "a"); markThread(); }
    else clearPicture($("picture-a"), "a");
    texts = { print: a.text };
  }
  showTabNow();
  shown(tensor);
}

// The thread box: a TV or atom picture marks the thread's cells; partition
// also lists its elements, which the server answers.
function threadChanged() {
  if (state.mode === "partition") update(); else markThread();
  saveUrl();
}

let urlTimer = 0;
function update() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(saveUrl, 150);
  const run = { layout: updateLayout, compare: updateLayout, tv: updateTv, atom: updateAtom, partition: updatePartition }[state.mode];
  run().catch((e) => showError({ error: "layoutx: error: the server did not answer (" + e.message + ")\n" }));
}

function setMode(mode) {
  state.mode = mode;
  for (const b of document.querySelectorAll("#modes button")) b.classList.toggle("on", b.dataset.mode === mode);
  for (const el of document.querySelectorAll("[data-show]")) el.hidden = !el.dataset.show.split(" ").includes(mode);
  $("bits-box").hidden = $("color").value !== "bank";
  $("p-val-box").hidden = $("p-kind").value !== "copy";
  if (mode !== "compare") { clearPicture($("picture-b"), "b"); $("verdict").textContent = ""; }
  $("cell-info").textContent = "";
  $("timing").textContent = "";
  update();
}

// ---- export ---------------------------------------------------------------------

async function exportAs(format) {
  const expr = $("expr").value.trim();
  if (state.mode === "atom" || state.mode === "tv" || state.mode === "partition") {
    texts.export = "export draws the layout of the Layout mode; use the command line's tv/atom --format for these";
    $("tab-text").textContent = texts.export;
    return;
  }
  const a = await api("export", { expr, format, color: $("color").value, bits: $("bits").value }, "tab");
  texts.export = a.ok ? a.text : a.error;
  $("tab-text").textContent = texts.export;
  const link = $("download");
  if (a.ok) {
    const ext = { svg: "svg", tikz: "tex", cpp: "cpp", type: "cpp", python: "py" }[format];
    link.href = URL.createObjectURL(new Blob([a.text], { type: format === "svg" ? "image/svg+xml" : "text/plain" }));
    link.download = "layout." + ext;
    link.hidden = false;
  }
}

// ---- history and the address ----------------------------------------------------

const history = { list: JSON.parse(localStorage.getItem("layoutx.history") || "[]"), at: -1 };
function remember(expr) {
  if (!expr || history.list[0] === expr) return;
  history.list = [expr, ...history.list.filter((e) => e !== expr)].slice(0, 100);
  localStorage.setItem("layoutx.history", JSON.stringify(history.list));
}

const fields = { e: "expr", b: "expr-b", tv: "tv", tile: "tile", thr: "thr-id", atom: "atom", color: "color", bits: "bits", t: "thread",
                 pt: "p-tensor", pk: "p-kind", pa: "p-atom", pl: "p-layout", pv: "p-val", po: "p-operand", ptile: "p-tile",
                 pc: "p-coord", pb: "p-bits" };
function saveUrl() {
  const q = new URLSearchParams();
  if (state.mode !== "layout") q.set("mode", state.mode);
  for (const [k, id] of Object.entries(fields)) {
    const v = $(id).value;
    const dflt = { color: "offset", bits: "32", t: "-1", pk: "mma" }[k];
    if (v && v !== dflt) q.set(k, v);
  }
  const url = "#" + q.toString();
  history_replace(url);
  $("share").href = url;
}
function history_replace(url) { window.history.replaceState(null, "", url); }

function loadUrl() {
  const q = new URLSearchParams(location.hash.slice(1));
  for (const [k, id] of Object.entries(fields)) if (q.has(k)) $(id).value = q.get(k);
  return q.get("mode") || "layout";
}

// ---- wiring -----------------------------------------------------------------------

for (const id of ["expr", "expr-b", "tv", "tile", "thr-id", "atom", "color", "bits", "p-tensor", "p-kind", "p-atom",
                  "p-layout", "p-val", "p-operand", "p-tile", "p-coord", "p-bits"])
  $(id).addEventListener("input", update);
$("color").addEventListener("change", () => { $("bits-box").hidden = $("color").value !== "bank"; });
$("thread").addEventListener("input", threadChanged);
$("p-kind").addEventListener("change", () => { $("p-val-box").hidden = $("p-kind").value !== "copy"; });
for (const id of ["expr", "expr-b", "tv", "atom"]) {
  const input = $(id);
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { remember(input.value.trim()); history.at = -1; }
    if ((ev.key === "ArrowUp" || ev.key === "ArrowDown") && history.list.length) {
      ev.preventDefault();
      if (history.at === -1) remember(input.value.trim());
      history.at = Math.max(-1, Math.min(history.list.length - 1, history.at + (ev.key === "ArrowUp" ? 1 : -1)));
      if (history.at >= 0) { input.value = history.list[history.at]; update(); }
    }
  });
  input.addEventListener("blur", () => remember(input.value.trim()));
}
for (const b of document.querySelectorAll("#modes button")) b.addEventListener("click", () => setMode(b.dataset.mode));
for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => { state.tab = b.dataset.tab; showTabNow(); });
for (const b of document.querySelectorAll("[data-export]")) b.addEventListener("click", () => exportAs(b.dataset.export));
window.addEventListener("hashchange", () => setMode(loadUrl()));
setupHover($("picture-a"));
setupHover($("picture-b"));

const startMode = loadUrl();
if (!location.hash) $("expr").value = "(8,8):(8,1)";
setMode(startMode);
