// The live workbench's page: the controls and the editable grid. Each change goes to the worker
// (worker.js), which runs sudosat's workbench in Python (sudosat.workbench.page) and answers with
// the settled settings and the views, the same HTML as the JupyterLab widget shows.
// One request at a time: a change made while Python is busy waits, and only the latest waits.

const $ = (id) => document.getElementById(id);
const opened = performance.now();
// what the tests and the measurements read: when Python was ready, when each answer came
const times = (window.sudosatTimes = { ready: null, start: null, firstAnswer: null, answers: [] });
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
const TYPING_MS = 400; // typing is answered once it pauses this long, as in JupyterLab

let nextId = 1;
let inFlight = null; // {id, sent, changed} of the request Python is working on
let waiting = null; // the latest request made meanwhile
let grid = { order: 0, inputs: [] };
const downloads = new Set(); // ids of download requests

const starting = setInterval(() => {
  const seconds = Math.round((performance.now() - opened) / 1000);
  $("status").textContent = `⏳ starting Python in your browser… ${seconds} s`;
}, 1000);

worker.onmessage = ({ data }) => {
  if (data.id === 0) {
    clearInterval(starting);
    if (data.error) {
      $("status").innerHTML = `<span class="sudosat-no">${escape(data.error)}</span>`;
      return;
    }
    times.ready = performance.now() - opened;
    times.start = data.ready.ms; // in the worker: Pyodide's start, then sudosat's import
    setUp(data.ready);
    send("start");
  } else if (downloads.has(data.id)) {
    downloads.delete(data.id);
    $("download").innerHTML = data.error ? escape(data.error) : data.answer;
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
  }
};

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
  $("limit").value = 10000;
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
  $("limit").addEventListener("change", () => send("setting"));
  $("prepare").addEventListener("click", () => {
    $("prepare").hidden = true;
    $("download").textContent = "⏳ writing the DIMACS…";
    const id = nextId++;
    downloads.add(id);
    worker.postMessage({ id, kind: "download" });
  });
  $("workbench").hidden = false;
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
    time_limit_ms: Number($("limit").value) || 10000,
  };
}

// -- talking to Python ----------------------------------------------------------------------

function send(changed, extra = {}) {
  // the first request takes Python's defaults: the course example, encoded as in the course
  const request = changed === "start" ? { changed } : { ...settings(), changed, ...extra };
  if (inFlight) waiting = request;
  else dispatch(request);
}

function dispatch(request) {
  const id = nextId++;
  inFlight = { id, sent: performance.now(), changed: request.changed };
  if (request.changed !== "order") $("status").innerHTML = "⏳ solving…";
  worker.postMessage({ id, kind: "respond", request });
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
    return;
  }
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
  for (const name of ["verdict", "counts", "excerpt", "download", "answer"]) {
    $(name).innerHTML = answer.views[name];
  }
  $("prepare").hidden = !answer.download_later;
}

function showBoard({ order, given, hint, bad }) {
  if (order !== grid.order) buildGrid(order);
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
        input.classList.remove("bad");
        input.classList.toggle("given", input.value.trim() !== "");
        typed();
      });
      td.append(input);
      inputs.push(input);
    }
  }
  $("grid").replaceChildren(table);
  grid = { order, inputs };
}

function escape(text) {
  const div = document.createElement("div");
  div.textContent = String(text);
  return div.innerHTML;
}
