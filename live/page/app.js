// The live workbench's page: the controls and the editable grid. Each change goes to the worker
// (worker.js), which runs sudosat's workbench in Python (sudosat.workbench.page) and answers with
// the settled settings and the views, the same HTML as the JupyterLab widget shows.
// One request at a time: a change made while Python is busy waits, and only the latest waits.
// Stop revokes the blob URL the worker's Python watches while it solves (worker.js), so the
// solve stops, ends the worker and starts a fresh one; the board, the line and the controls
// stay as the page shows them, and the next change sends them to the fresh Python.

const $ = (id) => document.getElementById(id);
const opened = performance.now();
// what the tests and the measurements read: when Python was ready, when each answer came,
// each Stop (how long the request had run, how long stopping took)
const times = (window.sudosatTimes = {
  ready: null, start: null, firstAnswer: null, answers: [], stops: [], restarts: [],
});
const TYPING_MS = 400; // typing is answered once it pauses this long, as in JupyterLab

let worker = null;
let nextId = 1;
let inFlight = null; // {id, sent, changed} of the request Python is working on
let waiting = null; // the latest request made meanwhile
let grid = { order: 0, inputs: [], edited: false }; // edited: cells typed, not yet answered
let limits = { min: 100, max: 3600000, default: 10000 }; // Python's (choices), once ready
let shown = false; // an answer has been shown: the page holds a board of its own
const downloads = new Set(); // ids of DIMACS requests
let saved = null; // the object URL of the last DIMACS written
let restarting = false; // a Stop ended the worker; the fresh one is starting Python
let alive = null; // the blob URL the worker watches while it solves (worker.js)

if (location.protocol !== "file:") { // from a file, index.html has said what to do instead
  startWorker();
}

function startWorker() {
  const began = performance.now();
  const fresh = !times.ready;
  const starting = fresh ? setInterval(() => {
    const seconds = Math.round((performance.now() - opened) / 1000);
    $("status").textContent = `⏳ starting Python in your browser… ${seconds} s`;
  }, 1000) : null;
  const own = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker = own;
  // revoked by Stop: the worker's Python, reading it while it solves, stops at once
  alive = URL.createObjectURL(new Blob(["alive"], { type: "text/plain" }));
  own.postMessage({ kind: "alive", url: alive });
  own.onmessage = ({ data }) => {
    if (own !== worker) return; // a stopped worker's last words
    if (data.id === 0) {
      clearInterval(starting);
      if (data.error) {
        $("status").innerHTML = `<span class="sudosat-no">${escape(data.error)}</span>`;
      } else if (fresh) {
        times.ready = performance.now() - opened;
        times.start = data.ready.ms; // in the worker: Pyodide's start, then sudosat's import
        setUp(data.ready);
        send("start");
      } else {
        restarting = false;
        times.restarts.push(performance.now() - began);
      }
      return;
    }
    receive(data);
  };
}

function receive(data) {
  if (downloads.has(data.id)) {
    downloads.delete(data.id);
    if (data.error) $("download").textContent = data.error;
    else offer(data.answer);
    updateStop();
  } else if (inFlight && data.id === inFlight.id) {
    const done = inFlight;
    inFlight = null;
    if (data.error) {
      $("status").innerHTML = `<span class="sudosat-no">${escape(data.error)}</span>`;
    } else if (!waiting) { // a later change is waiting: this answer is already out of date
      show(data.answer);
    }
    record(done, data.ms, data.answer?.times);
    if (waiting) {
      const next = waiting;
      waiting = null;
      dispatch(next);
    }
    updateStop();
  }
}

// -- stopping ---------------------------------------------------------------------------------

function busy() {
  return inFlight !== null || downloads.size > 0;
}

function updateStop() {
  $("stop").disabled = !busy();
}

function stop() {
  if (!busy()) return;
  const began = performance.now();
  const ran = inFlight ? began - inFlight.sent : null;
  const changed = inFlight ? inFlight.changed : "dimacs";
  URL.revokeObjectURL(alive); // Python sees it at its next look (every 50 ms) and stops
  worker.terminate(); // and the worker ends: at once when idle, once Python stops when busy
  inFlight = null;
  waiting = null;
  downloads.clear();
  restarting = true;
  startWorker(); // a fresh Python, ready for the next change in a few seconds
  // the board stays: the order list goes back to the board shown, the line and cells stay
  if (grid.order) $("order").value = String(grid.order);
  $("prepare").hidden = true;
  const after = ran === null ? "" : ` after ${(ran / 1000).toFixed(1)} s`;
  if (changed === "dimacs") {
    $("download").textContent = "⏹ stopped: no DIMACS written. Solve again to write it.";
  } else {
    $("status").innerHTML =
      `<span class="sudosat-no">⏹ stopped${after}: no answer, which is not UNSAT.</span> ` +
      "The board is kept; change it, the solver or the limit to solve again.";
  }
  times.stops.push({ changed, ran_ms: ran, stop_ms: performance.now() - began });
  updateStop();
}

function record(done, pythonMs, solved) {
  const ms = performance.now() - done.sent;
  if (times.firstAnswer === null) times.firstAnswer = performance.now() - opened;
  times.answers.push({ changed: done.changed, ms, python_ms: pythonMs, ...solved });
  document.body.dataset.answers = String(times.answers.length);
}

// -- the controls ---------------------------------------------------------------------------

function setUp({ choices: offered, config }) {
  document.head.insertAdjacentHTML("beforeend", offered.style);
  fill($("order"), offered.orders.map((n) => [String(n), `${n} (${n * n}×${n * n})`]));
  fill($("encoding"), offered.encodings.map((name) => [name, name]));
  fill($("solver"), offered.solvers.map((name) => [name, name]));
  fill($("numbering"), offered.numberings.map((n) => [n.name, n.name]));
  $("numbering").title = offered.numberings.map((n) => `${n.name}: ${n.description}`).join("\n");
  limits = offered.limit_ms;
  $("limit").min = limits.min;
  $("limit").max = limits.max;
  $("limit").value = limits.default;
  $("limit-note").dataset.bounds =
    `(${limits.min.toLocaleString("en")} to ${limits.max.toLocaleString("en")})`;
  $("limit-note").textContent = $("limit-note").dataset.bounds;
  for (const family of offered.families) {
    $("families").insertAdjacentHTML(
      "beforeend",
      `<label title="${escape(family.title)}"><input type="checkbox" data-family="${family.name}"> ` +
        `${escape(family.label)}</label>`,
    );
  }
  toggles($("givens"), offered.givens);
  toggles($("amo"), offered.amo);
  const absent = offered.unavailable.map((name) => name.replace(":NAME", ":…"));
  $("unavailable").textContent = absent.length
    ? `Not available in the browser: ${absent.join(", ")}. Each needs a native program or ` +
      "PySAT's compiled solvers, which a web page cannot run; in JupyterLab, " +
      "notebooks/explore.ipynb offers every solver installed there."
    : "";
  $("versions").textContent =
    `sudosat ${config.sudosat} on Pyodide ${config.pyodide}; ` +
    `Python started in ${(times.ready / 1000).toFixed(1)} s.`;

  $("order").addEventListener("change", () => {
    $("status").innerHTML = `⏳ building the order-${$("order").value} board…`;
    send("order", { order: Number($("order").value) });
  });
  $("puzzle").addEventListener("change", () => {
    if (!$("puzzle").value) return;
    $("line").value = $("puzzle").value;
    send("puzzle");
  });
  $("line").addEventListener("input", debounce(() => send("text")));
  $("encoding").addEventListener("change", () => send("encoding"));
  $("families").addEventListener("change", () => send("switches"));
  $("numbering").addEventListener("change", () => send("switches"));
  $("solver").addEventListener("change", () => send("setting"));
  $("limit").addEventListener("input", () => limitOk());
  $("limit").addEventListener("change", () => send("setting"));
  $("stop").addEventListener("click", stop);
  $("prepare").addEventListener("click", () => {
    $("prepare").hidden = true;
    $("download").textContent = "⏳ writing the DIMACS in your browser…";
    const id = nextId++;
    downloads.add(id);
    worker.postMessage({ id, kind: "dimacs" });
    updateStop();
  });
  $("workbench").hidden = false;
}

// The limit as its label says, or a word beside the field (and nothing is sent).
function limitOk() {
  const field = $("limit");
  const text = field.value.trim();
  const value = Number(text);
  const ok = text !== "" && Number.isFinite(value) && value >= limits.min && value <= limits.max;
  const note = $("limit-note");
  note.textContent = ok ? note.dataset.bounds : `✗ not a limit: ${note.dataset.bounds} ms`;
  note.classList.toggle("sudosat-no", !ok);
  field.setAttribute("aria-invalid", String(!ok));
  return ok;
}

// The DIMACS the worker wrote, saved as a file; the link stays to save it again.
function offer({ blob, name }) {
  if (saved) URL.revokeObjectURL(saved);
  saved = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.className = "sudosat-download";
  link.href = saved;
  link.download = name;
  link.textContent = `⬇ save the whole DIMACS (${(blob.size / 1e6).toFixed(1)} MB, ${name})`;
  $("download").replaceChildren(link);
  link.click();
}

function fill(select, options) {
  select.replaceChildren(...options.map(([value, text]) => new Option(text, value)));
}

function toggles(box, names) {
  for (const name of names) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = name;
    button.dataset.value = name;
    button.addEventListener("click", () => {
      press(box, name);
      send("switches");
    });
    box.append(button);
  }
}

function press(box, value) {
  for (const button of box.children) {
    button.setAttribute("aria-pressed", String(button.dataset.value === value));
  }
}

function pressed(box) {
  const on = [...box.children].find((b) => b.getAttribute("aria-pressed") === "true");
  return on ? on.dataset.value : undefined;
}

function settings() {
  const cells = grid.edited ? { cells: grid.inputs.map((input) => input.value) } : {};
  const switches = {};
  for (const box of $("families").querySelectorAll("input[data-family]")) {
    switches[box.dataset.family] = box.checked;
  }
  Object.assign(switches, {
    givens: pressed($("givens")),
    amo: pressed($("amo")),
    numbering: $("numbering").value,
  });
  return {
    text: $("line").value,
    encoding: $("encoding").value,
    switches,
    solver: $("solver").value,
    time_limit_ms: Number($("limit").value),
    ...cells, // cells typed but not yet answered win over the line (a Stop may have cut them)
  };
}

// -- talking to Python ----------------------------------------------------------------------

function send(changed, extra = {}) {
  if (!limitOk()) {
    $("status").innerHTML = '<span class="sudosat-no">Nothing solved: the limit is out of ' +
      `bounds; type ${escape($("limit-note").dataset.bounds)} ms beside “limit”.</span>`;
    return;
  }
  // the first request takes Python's defaults: the course example, encoded as in the course
  // (again after a Stop that came before any answer)
  const first = changed === "start" || !shown;
  const request = first ? { changed: "start" } : { ...settings(), changed, ...extra };
  if (inFlight) waiting = request;
  else dispatch(request);
}

function dispatch(request) {
  const id = nextId++;
  inFlight = { id, sent: performance.now(), changed: request.changed };
  if (request.changed !== "order" || restarting) {
    $("status").innerHTML = restarting ? "⏳ starting Python again, then solving…" : "⏳ solving…";
  }
  worker.postMessage({ id, kind: "respond", request });
  updateStop();
}

function debounce(action) {
  let timer = null;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(action, TYPING_MS);
  };
}

// -- showing an answer ----------------------------------------------------------------------

function show(answer) {
  $("status").innerHTML = answer.views.status;
  if (!answer.state) { // refused before solving (a cell that is no symbol): mark it
    for (const cell of answer.bad || []) grid.inputs[cell]?.classList.add("bad");
    if (grid.order) $("order").value = String(grid.order); // the board shown stays
    return;
  }
  shown = true;
  const state = answer.state;
  $("encoding").value = state.encoding;
  $("solver").value = state.solver;
  $("limit").value = state.time_limit_ms;
  for (const box of $("families").querySelectorAll("input[data-family]")) {
    box.checked = state.switches[box.dataset.family];
    box.disabled = !state.switches_enabled;
  }
  press($("givens"), state.switches.givens);
  press($("amo"), state.switches.amo);
  $("numbering").value = state.switches.numbering;
  for (const control of [...$("givens").children, ...$("amo").children, $("numbering")]) {
    control.disabled = !state.switches_enabled;
  }
  if (document.activeElement !== $("line")) $("line").value = state.text;
  if (answer.board) {
    $("order").value = String(answer.board.order);
    fill($("puzzle"), [["", "(your board)"], ...answer.puzzles.map(([label, line]) => [line, label])]);
    $("puzzle").value = answer.puzzle || "";
    showBoard(answer.board);
  }
  if (saved) URL.revokeObjectURL(saved); // the DIMACS of an earlier setting
  saved = null;
  for (const name of ["verdict", "counts", "excerpt", "download", "answer"]) {
    $(name).innerHTML = answer.views[name];
  }
  $("prepare").hidden = !answer.download_later;
}

function showBoard({ order, given, hint, bad }) {
  if (order !== grid.order) buildGrid(order);
  grid.edited = false;
  const marked = new Set(bad);
  grid.inputs.forEach((input, index) => {
    const value = given[index];
    if (document.activeElement !== input || Number(input.value) !== value) {
      input.value = value ? String(value) : "";
    }
    input.placeholder = !value && hint ? String(hint[index]) : "";
    input.classList.toggle("given", Boolean(value));
    input.classList.toggle("bad", marked.has(index));
  });
}

function buildGrid(order) {
  const size = order * order;
  const table = document.createElement("table");
  table.className = `sudosat-grid o${order}`;
  const inputs = [];
  const typed = debounce(() => send("cell", { cells: inputs.map((input) => input.value) }));
  for (let i = 0; i < size; i++) {
    const row = table.insertRow();
    for (let j = 0; j < size; j++) {
      const td = row.insertCell();
      if (i > 0 && i % order === 0) td.classList.add("bt");
      if (j > 0 && j % order === 0) td.classList.add("bl");
      const input = document.createElement("input");
      input.maxLength = 2;
      input.setAttribute("aria-label", `row ${i + 1}, column ${j + 1}`);
      input.addEventListener("input", () => {
        grid.edited = true;
        input.classList.remove("bad");
        input.classList.toggle("given", input.value.trim() !== "");
        typed();
      });
      td.append(input);
      inputs.push(input);
    }
  }
  $("grid").replaceChildren(table);
  grid = { order, inputs, edited: false };
}

function escape(text) {
  const div = document.createElement("div");
  div.textContent = String(text);
  return div.innerHTML;
}
