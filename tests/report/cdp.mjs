// Drives headless Chromium over the DevTools protocol to check a page's DOM (the CLI tests of
// the HTML report and the compare page, issue #21): no package, no port, no screenshot. The
// protocol runs over a pair of pipes (--remote-debugging-pipe: Chromium reads commands on fd 3
// and writes replies on fd 4, each message ending with a NUL byte).
//
// usage: node cdp.mjs URL CHECKS_FILE
//   Loads URL, then evaluates the JavaScript of CHECKS_FILE in the page: an expression whose
//   value (or a promise of it) is printed on standard output as JSON. The checks run the page
//   as a person would (element.click(), setting a filter and sending its event).
// exit 0: the checks ran and the page raised no error (an uncaught exception, console.error,
//   a failed load logged at level error); 1: it did (each printed on stderr); 2: the driver
//   failed (no Chromium, a timeout, a check that threw).
// CHROMIUM names the browser (default chromium); CDP_TIMEOUT the seconds allowed (60).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, checksFile] = process.argv.slice(2);
if (!url || !checksFile) {
	console.error('usage: node cdp.mjs URL CHECKS_FILE');
	process.exit(2);
}
const checks = readFileSync(checksFile, 'utf8');
const profile = mkdtempSync(join(tmpdir(), 'assay-cdp.'));
const chrome = spawn(process.env.CHROMIUM || 'chromium',
	['--headless', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe', '--no-first-run',
	 '--no-default-browser-check', `--user-data-dir=${profile}`, 'about:blank'],
	{ stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
const pageErrors = [];
let nextId = 1, pending = new Map(), waiters = [], buffered = '';

function finish(code, message) {
	if (message) console.error(message);
	try { chrome.kill('SIGKILL'); } catch { /* gone already */ }
	try { rmSync(profile, { recursive: true, force: true }); } catch { /* best effort */ }
	process.exit(code);
}
const timer = setTimeout(() => finish(2, 'cdp: timed out'),
	1000 * Number(process.env.CDP_TIMEOUT || 60));
chrome.on('error', (e) => finish(2, `cdp: cannot start Chromium: ${e.message}`));

function send(method, params = {}, sessionId) {
	const id = nextId++;
	const msg = { id, method, params };
	if (sessionId) msg.sessionId = sessionId;
	chrome.stdio[3].write(JSON.stringify(msg) + '\0');
	return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
}
function event(method) {
	return new Promise((resolve) => waiters.push({ method, resolve }));
}
function onMessage(m) {
	if (m.id && pending.has(m.id)) {
		const p = pending.get(m.id);
		pending.delete(m.id);
		if (m.error) p.reject(new Error(`${p.method}: ${m.error.message}`));
		else p.resolve(m.result);
		return;
	}
	if (m.method === 'Runtime.exceptionThrown') {
		const d = m.params.exceptionDetails;
		pageErrors.push(`uncaught: ${(d.exception && d.exception.description) || d.text}`);
	} else if (m.method === 'Runtime.consoleAPICalled' && m.params.type === 'error') {
		pageErrors.push(`console.error: ${m.params.args.map((a) => a.value ?? a.description).join(' ')}`);
	} else if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error') {
		pageErrors.push(`log: ${m.params.entry.text} ${m.params.entry.url || ''}`);
	}
	waiters = waiters.filter((w) => (w.method === m.method ? (w.resolve(m.params), false) : true));
}
chrome.stdio[4].setEncoding('utf8');
chrome.stdio[4].on('data', (chunk) => {
	buffered += chunk;
	let nul;
	while ((nul = buffered.indexOf('\0')) >= 0) {
		const text = buffered.slice(0, nul);
		buffered = buffered.slice(nul + 1);
		onMessage(JSON.parse(text));
	}
});

try {
	const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
	const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
	await send('Runtime.enable', {}, sessionId);
	await send('Log.enable', {}, sessionId);
	await send('Page.enable', {}, sessionId);
	const loaded = event('Page.loadEventFired');
	const nav = await send('Page.navigate', { url }, sessionId);
	if (nav.errorText) finish(2, `cdp: ${url}: ${nav.errorText}`);
	await loaded;
	const r = await send('Runtime.evaluate', {
		expression: checks, awaitPromise: true, returnByValue: true,
	}, sessionId);
	if (r.exceptionDetails) {
		const d = r.exceptionDetails;
		finish(2, `cdp: the checks threw: ${(d.exception && d.exception.description) || d.text}`);
	}
	console.log(JSON.stringify(r.result.value, null, 1));
	clearTimeout(timer);
	for (const e of pageErrors) console.error(e);
	finish(pageErrors.length ? 1 : 0);
} catch (e) {
	finish(2, `cdp: ${e.message}`);
}
