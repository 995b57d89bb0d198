// Drives assay's skill review page in headless Chromium over the DevTools protocol (no
// package needed: node's WebSocket, run with --experimental-websocket on node 20), for
// tests/cli/t8014: load the page, check the cases listed, navigate between them, type
// feedback for two runs, check it survives navigation, save it, wait for "saved". Prints a
// JSON summary; exits 1 on a failed step or on any console error or uncaught exception.
// usage: node --experimental-websocket review_driver.mjs URL USER_DATA_DIR
import { spawn } from 'node:child_process';

const [url, dir] = process.argv.slice(2);
const chrome = spawn('chromium', ['--headless', '--no-sandbox', '--disable-gpu',
	'--remote-debugging-port=0', `--user-data-dir=${dir}`, 'about:blank'],
	{ stdio: ['ignore', 'ignore', 'pipe'] });
function fail(msg) {
	console.log(JSON.stringify({ failed: msg }));
	chrome.kill('SIGKILL');
	process.exit(1);
}
setTimeout(() => fail('timeout'), 90000).unref();
let stderr = '';
const port = await new Promise((resolve) => {
	chrome.stderr.on('data', (d) => {
		stderr += d;
		const m = stderr.match(/DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//);
		if (m) resolve(m[1]);
	});
	chrome.on('exit', () => fail('chromium exited: ' + stderr.slice(-500)));
});
const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
const target = list.find((t) => t.type === 'page');
const ws = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((r) => { ws.onopen = r; });
let id = 0;
const pending = new Map();
const errors = [];
ws.onmessage = (ev) => {
	const m = JSON.parse(ev.data);
	if (m.id && pending.has(m.id)) {
		pending.get(m.id)(m);
		pending.delete(m.id);
	} else if (m.method === 'Runtime.exceptionThrown') {
		errors.push(m.params.exceptionDetails.text + ' ' +
			JSON.stringify(m.params.exceptionDetails.exception || {}));
	} else if (m.method === 'Runtime.consoleAPICalled' && m.params.type === 'error') {
		errors.push(m.params.args.map((a) => a.value).join(' '));
	} else if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error') {
		errors.push(m.params.entry.text);
	}
};
const send = (method, params = {}) => new Promise((r) => {
	const i = ++id;
	pending.set(i, r);
	ws.send(JSON.stringify({ id: i, method, params }));
});
async function ev(expression) {
	const r = await send('Runtime.evaluate', { expression, awaitPromise: true,
		returnByValue: true });
	if (r.result.exceptionDetails)
		fail(expression + ': ' + JSON.stringify(r.result.exceptionDetails));
	return r.result.result.value;
}
async function waitFor(expression, what) {
	for (let i = 0; i < 400; i++) {
		if (await ev(expression))
			return;
		await new Promise((r) => setTimeout(r, 50));
	}
	fail('waiting for ' + what);
}
const title = () => ev("document.getElementById('case-title').textContent");
const type = (run, text) => ev(`(() => { const t = document.querySelector('textarea[data-run="${run}"]');
	t.value = ${JSON.stringify(text)}; t.dispatchEvent(new Event('input')); return true; })()`);

await send('Runtime.enable');
await send('Log.enable');
await send('Page.enable');
await send('Page.navigate', { url });
await waitFor("document.body && document.body.dataset.ready === 'yes'", 'the page');
const out = {};
out.cases = await ev("[...document.querySelectorAll('#cases button')].map(b => b.dataset.case)");
out.first = await title();
out.runs_shown = await ev("document.querySelectorAll('section.run').length");
out.prompt = await ev("document.querySelector('#case pre').textContent");
out.grades = await ev("document.querySelectorAll('section.run table tr').length");
await ev("document.querySelector('#cases button[data-case=\"case-02\"]').click(), true");
out.second = await title();
out.hash = await ev('location.hash');
await type('case-02/v0/run1', 'too long: cut the summary');
await ev("document.getElementById('prev').click(), true");
out.back = await title();
await type('case-01/v0/run1', 'good');
await ev("document.getElementById('next').click(), true");
out.kept = await ev("document.querySelector('textarea[data-run=\"case-02/v0/run1\"]').value");
out.markup = await ev("document.querySelectorAll('main b, main script').length");
await ev("document.getElementById('save').click(), true");
await waitFor("document.getElementById('status').textContent !== ''", 'the save');
out.status = await ev("document.getElementById('status').textContent");
out.errors = errors;
console.log(JSON.stringify(out));
chrome.kill('SIGKILL');
process.exit(errors.length ? 1 : 0);
