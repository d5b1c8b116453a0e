/// The live inspector's page: styles and script inline (nothing fetched), every value from
/// the feed put in the page as text. Rows are appended as events arrive, so thousands stay
/// cheap; the filter hides rows without rebuilding them.
enum InspectorPage {
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Tapedeck inspector</title>
        <style>
        body{font:14px/1.45 system-ui,sans-serif;margin:1em auto;max-width:100em;padding:0 1em;color:#1b1f24}
        h1{font-size:1.3em;margin:.2em 0}#state{color:#57606a}form{display:flex;flex-wrap:wrap;gap:.6em;align-items:center;margin:.8em 0}
        input{font:inherit}button{font:inherit;cursor:pointer}#message{color:#57606a}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.2em .6em;border-bottom:1px solid #eee;white-space:nowrap}
        td.target{white-space:normal;word-break:break-all}td.num{text-align:right}
        tr.played td.outcome{color:#1a7f37}tr.recorded td.outcome{color:#0550ae}tr.unmatched td{color:#c62828}tr.unmatched{cursor:pointer}
        tr.selected{background:#fdecea}pre{background:#f6f8fa;padding:.6em;white-space:pre-wrap;word-break:break-all}
        </style></head>
        <body>
        <h1>Tapedeck inspector</h1>
        <p id="state">connecting…</p>
        <form onsubmit="return false">
        <button id="reset" type="button">Reset</button>
        <input id="cassette" placeholder="cassette path" size="28">
        <button id="load" type="button">Load</button>
        <input id="upstream" placeholder="upstream URL (record)" size="26">
        <select id="mode"><option>once</option><option>new</option><option>all</option></select>
        <button id="start" type="button">Record start</button>
        <button id="stop" type="button">Record stop</button>
        <input id="filter" type="search" placeholder="filter" size="18">
        <span id="message"></span>
        </form>
        <table><thead><tr><th>#</th><th>Time</th><th>Method</th><th>Target</th><th class="num">Status</th><th class="num">ms</th><th>Outcome</th></tr></thead>
        <tbody id="rows"></tbody></table>
        <section id="report" hidden><h2>Mismatch report</h2><pre id="reportText"></pre></section>
        <script>
        const token = location.pathname.split('/')[3];
        const $ = id => document.getElementById(id);
        const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
        let count = 0, unmatched = 0, total = 0;
        // A page opened late gets the server's last events only: it says how many it has of how many.
        function shown() { return (total > count ? 'the last ' + count + ' of ' + total : count) + ' requests · ' + unmatched + ' unmatched'; }
        function note() { $('state').textContent = shown() + ' · live'; }
        function add(e) {
          const r = el('tr', undefined, e.outcome); r.dataset.text = (e.method + ' ' + e.target + ' ' + e.status + ' ' + e.outcome).toLowerCase();
          [[e.n, 'num'], [e.time.slice(11, 23)], [e.method], [e.target, 'target'], [e.status, 'num'], [e.ms, 'num'], [e.outcome, 'outcome']]
            .forEach(([v, c]) => r.appendChild(el('td', v, c)));
          if (e.report) r.addEventListener('click', () => {
            document.querySelectorAll('#rows tr.selected').forEach(x => x.classList.remove('selected'));
            r.classList.add('selected'); $('reportText').textContent = e.report; $('report').hidden = false;
          });
          r.hidden = !matches(r); $('rows').appendChild(r);
          count++; total = Math.max(total, e.n); if (e.outcome === 'unmatched') unmatched++; note();
        }
        function matches(r) { const f = $('filter').value.toLowerCase(); return !f || r.dataset.text.includes(f); }
        $('filter').addEventListener('input', () => document.querySelectorAll('#rows tr').forEach(r => { r.hidden = !matches(r); }));
        const feed = new EventSource('events');
        feed.onmessage = m => add(JSON.parse(m.data));
        feed.onopen = note;
        feed.onerror = async () => {
          if (feed.readyState !== EventSource.CLOSED) { $('state').textContent = shown() + ' · disconnected (the server stopped?); retrying'; return; }
          // Refused outright: the server says why (too many pages open) when it still answers.
          let why = 'disconnected (the server stopped?)';
          try {
            const stop = new AbortController();
            const answer = await fetch('events', { signal: stop.signal });
            if (!answer.ok) why = answer.status + ' ' + (await answer.text()).trim().slice(0, 300);
            stop.abort();
          } catch (_) {}
          $('state').textContent = shown() + ' · ' + why;
        };
        async function control(path) {
          const answer = await fetch('/__tapedeck/' + path, { method: 'POST', headers: { 'X-Tapedeck-Token': token } });
          $('message').textContent = answer.status + ' ' + (await answer.text()).slice(0, 300);
        }
        const q = (k, v) => v ? '&' + k + '=' + encodeURIComponent(v) : '';
        $('reset').onclick = () => control('reset');
        $('load').onclick = () => control('load?cassette=' + encodeURIComponent($('cassette').value));
        $('start').onclick = () => control('record/start?cassette=' + encodeURIComponent($('cassette').value) + q('mode', $('mode').value) + q('upstream', $('upstream').value));
        $('stop').onclick = () => control('record/stop');
        </script>
        </body></html>

        """
}
