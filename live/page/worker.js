// The workbench's Python, off the page's thread: Pyodide, sudosat's light core, one Session.
// Messages in: {id, kind: "respond", request} or {id, kind: "download"}; out: {id, answer} or
// {id, error}. The first message out is {id: 0, ready: {choices, config, ms}} once Python runs.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (name) => new URL(name, import.meta.url).href;

async function start() {
  const began = performance.now();
  const [pyodide, archive, config] = await Promise.all([
    loadPyodide({ indexURL: here("./pyodide/") }),
    fetch(here("./sudosat.zip")).then((r) => r.arrayBuffer()),
    fetch(here("./config.json")).then((r) => r.json()),
  ]);
  const loaded = performance.now();
  const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  pyodide.unpackArchive(archive, "zip", { extractDir: site });
  pyodide.globals.set("CONFIG", JSON.stringify(config));
  // only strings cross between JavaScript and Python: no proxy to release
  const choices = pyodide.runPython(`
import json
from sudosat.workbench.page import Session, choices

session = Session(puzzles=json.loads(CONFIG)["puzzles"])

def respond(text):
    return json.dumps(session.respond(json.loads(text)))

json.dumps(choices())
`);
  const respond = pyodide.globals.get("respond");
  const download = pyodide.globals.get("session").download;
  const ms = { pyodide: loaded - began, sudosat: performance.now() - loaded };
  postMessage({ id: 0, ready: { choices: JSON.parse(choices), config, ms } });
  return {
    respond: (request) => respond(JSON.stringify(request)),
    download: () => download(),
  };
}

const python = start().catch((error) => {
  postMessage({ id: 0, error: `Python could not start here: ${error}` });
  throw error;
});

onmessage = async ({ data }) => {
  const { id, kind, request } = data;
  let workbench;
  try {
    workbench = await python;
  } catch {
    return;
  }
  try {
    const began = performance.now();
    const answer = kind === "download" ? workbench.download() : JSON.parse(workbench.respond(request));
    postMessage({ id, answer, ms: performance.now() - began });
  } catch (error) {
    postMessage({ id, error: String(error) });
  }
};
