// The workbench's Python, off the page's thread: Pyodide, sudosat's light core, one Session.
// Messages in: {id, kind: "respond", request} or {id, kind: "dimacs"}; out: {id, answer} or
// {id, error}. The first message out is {id: 0, ready: {choices, config, ms}} once Python runs.
// "dimacs" answers {name, blob}: the last setting's whole DIMACS, written here slice by slice
// into a Blob the page saves as a file (order 6 writes about 50 MB).
// {kind: "alive", url} (first, from the page) names a blob URL the page revokes when the reader
// presses Stop: Python, busy in a solve, reads it every STOP_CHECK_MS and stops at once
// (KeyboardInterrupt), before the page's terminate() ends this worker. Without it a busy worker
// runs on for the 2 s a browser may grant it after terminate() (Chromium does).
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (name) => new URL(name, import.meta.url).href;
const STOP_CHECK_MS = 50;

// Pyodide's interrupt buffer (a SharedArrayBuffer needs cross-origin isolation, which a plain
// static host cannot give): Python reads [0] every few dozen bytecodes; 2 raises
// KeyboardInterrupt. Here reading it looks, at most every STOP_CHECK_MS, whether the page's
// blob URL is still there: a synchronous request, which a worker may make.
const stopWatch = {
  url: null,
  calls: 0,
  next: 0,
  get 0() {
    if (++this.calls < 1000) return 0; // the clock itself, read at every call, cost 10-40 %
    this.calls = 0;
    const now = performance.now();
    if (this.url === null || now < this.next) return 0;
    this.next = now + STOP_CHECK_MS;
    return alive(this.url) ? 0 : 2;
  },
  set 0(_) {},
};

function alive(url) {
  try {
    const request = new XMLHttpRequest();
    request.open("GET", url, false);
    request.send();
    return request.status === 200;
  } catch {
    return false;
  }
}

async function start() {
  const began = performance.now();
  const [pyodide, archive, config] = await Promise.all([
    loadPyodide({ indexURL: here("./pyodide/") }),
    fetch(here("./sudosat.zip")).then((r) => r.arrayBuffer()),
    fetch(here("./config.json")).then((r) => r.json()),
  ]);
  const loaded = performance.now();
  // only where the check works while the page lives (else Stop relies on terminate() alone)
  if (stopWatch.url !== null && alive(stopWatch.url)) pyodide.setInterruptBuffer(stopWatch);
  const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  pyodide.unpackArchive(archive, "zip", { extractDir: site });
  pyodide.globals.set("CONFIG", JSON.stringify(config));
  // strings cross between JavaScript and Python; the only proxies are the two kept below for
  // the worker's life and each DIMACS's iterator, released once read
  const choices = pyodide.runPython(`
import json
from sudosat.workbench.page import Session, choices

session = Session(puzzles=json.loads(CONFIG)["puzzles"])

def respond(text):
    return json.dumps(session.respond(json.loads(text)))

json.dumps(choices())
`);
  const respond = pyodide.globals.get("respond");
  const session = pyodide.globals.get("session");
  const ms = { pyodide: loaded - began, sudosat: performance.now() - loaded };
  postMessage({ id: 0, ready: { choices: JSON.parse(choices), config, ms } });
  return {
    respond: (request) => respond(JSON.stringify(request)),
    dimacs: () => {
      const parts = [];
      const slices = session.dimacs_parts();
      try {
        for (const slice of slices) parts.push(slice); // Python's str arrive as JS strings
      } finally {
        slices.destroy();
      }
      return { name: session.dimacs_name(), blob: new Blob(parts, { type: "text/plain" }) };
    },
  };
}

const python = start().catch((error) => {
  postMessage({ id: 0, error: `Python could not start here: ${error}` });
  throw error;
});

onmessage = async ({ data }) => {
  const { id, kind, request } = data;
  if (kind === "alive") {
    stopWatch.url = data.url;
    return;
  }
  let workbench;
  try {
    workbench = await python;
  } catch {
    return;
  }
  try {
    const began = performance.now();
    const answer = kind === "dimacs" ? workbench.dimacs() : JSON.parse(workbench.respond(request));
    postMessage({ id, answer, ms: performance.now() - began });
  } catch (error) {
    postMessage({ id, error: String(error) });
  }
};
