import Foundation
import Tapedeck

/// The page `tapedeck cassette view C` serves, and `cassette diff A B --html` writes: one
/// self-contained HTML document (styles and script inline, nothing fetched) that reads its
/// data from an embedded JSON block and puts every value in the page as text, never markup
/// (escaped where rows are built as one string for speed).
///
/// The viewer lists the interactions (method, URL, status, size, recorded time and age),
/// filters them by method, status class and text, and shows one's request and response in
/// full when it is clicked, JSON bodies indented. Values are redacted as cassettes are.
package enum CassetteViewPage {
    /// The viewer page for `cassette`, titled `name`.
    package static func html(for cassette: Cassette, name: String, now: Date = Date()) -> String {
        // Redacted whole: a value replaced in one interaction is replaced in every other.
        let rows: [JSONValue] = Redactor.standard.redact(cassette).interactions.enumerated().map { index, interaction in
            let request = interaction.request, response = interaction.response
            let status: JSONValue = interaction.failure.map { .string($0.kind.rawValue) } ?? JSONValue(response.status)
            return .object([
                ("index", JSONValue(index)),
                ("method", .string(request.method.rawValue)),
                ("url", .string(request.urlText)),
                ("status", status),
                ("size", .string(CassetteTable.byteCount(response.body.count))),
                ("recordedAt", .string(String(RFC3339Date.format(interaction.recordedAt, fractionDigits: 3).prefix(23)).replacingOccurrences(of: "T", with: " "))),
                ("age", .string(MaxAge.describe(now.timeIntervalSince(interaction.recordedAt)))),
                ("failure", .string(interaction.failure?.detail ?? "")),
                ("request", side(request.headers, request.body ?? Data())),
                ("response", side(response.headers, response.body, shown: streamText(response))),
            ])
        }
        let title = "\(name) · \(cassette.interactions.count) interaction\(cassette.interactions.count == 1 ? "" : "s")"
        return document(title: title, data: .array(rows), body: viewerBody, script: viewerScript)
    }

    /// The diff page: each pair as `cassette diff` pairs them, added, removed or changed, with
    /// the field changes listed.
    package static func html(for diff: CassetteDiff, oldName: String, newName: String) -> String {
        let entries: [JSONValue] = diff.entries.map { entry in
            switch entry {
            case let .added(index, summary):
                return .object([("kind", "added"), ("label", .string("+ new #\(index)")), ("summary", .string(summary)), ("changes", .array([]))])
            case let .removed(index, summary):
                return .object([("kind", "removed"), ("label", .string("- old #\(index)")), ("summary", .string(summary)), ("changes", .array([]))])
            case let .changed(old, new, summary, changes):
                return .object([("kind", "changed"), ("label", .string("~ #\(old) → #\(new)")), ("summary", .string(summary)),
                                ("changes", .array(changes.map(JSONValue.string)))])
            }
        }
        let title = "\(oldName) → \(newName) · \(diff.entries.count) difference\(diff.entries.count == 1 ? "" : "s")"
        return document(title: title, data: .array(entries), body: diffBody, script: diffScript)
    }

    /// Headers as pairs and the body as text: JSON indented, other UTF-8 as it is, binary as its size.
    private static func side(_ headers: HTTPHeaders, _ body: Data, shown: String? = nil) -> JSONValue {
        var text = shown ?? ""
        if shown == nil, !body.isEmpty {
            if let contentType = headers["Content-Type"], MediaType.isJSON(contentType), let value = try? JSONParser.parse(body) {
                text = JSONWriter.write(value, options: [.pretty])
            } else if let utf8 = String(validating: body, as: UTF8.self) {
                text = utf8
            } else {
                text = "(\(body.count) bytes of binary data)"
            }
        }
        return .object([("headers", .array(headers.map { .array([.string($0.name), .string($0.value)]) })), ("body", .string(cutShort(text)))])
    }

    /// The most characters of a body the page holds: a 30 MB body would freeze it when shown.
    static let shownBodyLimit = 256 * 1024

    /// `text`, or its first ``shownBodyLimit`` characters and how many more the file holds.
    private static func cutShort(_ text: String) -> String {
        guard text.utf8.count > shownBodyLimit else { return text }
        let kept = String(text.prefix(shownBodyLimit))
        return kept + "\n… (\(text.utf8.count - kept.utf8.count) more bytes in the cassette)"
    }

    /// A stream as what happened when: each server-sent event (or other chunk) and each WebSocket
    /// frame on a line with its time; nil for a whole body.
    static func streamText(_ response: HTTPResponse) -> String? {
        func time(_ seconds: TimeInterval) -> String { "+\(Int((seconds * 1000).rounded())) ms" }
        if let frames = response.webSocket {
            return frames.map { frame in
                "\(time(frame.offset))  \(frame.sender == .client ? "→" : "←") \(frame.summary)"
            }.joined(separator: "\n")
        }
        guard let chunks = response.chunks else { return nil }
        let events = response.headers["Content-Type"].map(MediaType.essence) == "text/event-stream"
        return chunks.enumerated().map { index, chunk in
            let text = String(validating: chunk.data, as: UTF8.self) ?? ""
            let shown = events ? ServerSentEvents.parse(chunk.data).map { event in
                "event: \(event.event)" + (event.id.map { "  id: \($0)" } ?? "") + "  data: \(event.data)"
            }.joined(separator: "\n" + String(repeating: " ", count: 14)) : text.trimmingCharacters(in: .newlines)
            return "\(time(chunk.offset))  #\(index)  " + (shown.isEmpty ? "(\(chunk.data.count) bytes)" : shown)
        }.joined(separator: "\n")
    }

    /// The page: the data as JSON in a non-executed script block (`<` written as `\u003c`, so
    /// no value can close the block), then the markup and the script that renders it.
    private static func document(title: String, data: JSONValue, body: String, script: String) -> String {
        let json = (JSONWriter.write(data, options: []) as String).replacingOccurrences(of: "<", with: "\\u003c")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>\(XMLText.escape(title))</title>
            <style>\(style)</style></head>
            <body>
            <h1 id="title">\(XMLText.escape(title))</h1>
            \(body)
            <script type="application/json" id="data">\(json)</script>
            <script>\(script)</script>
            </body></html>

            """
    }

    private static let viewerBody = """
        <form id="filters" onsubmit="return false">
        <label>Method <select id="method"><option value="">any</option></select></label>
        <label>Status <select id="status"><option value="">any</option><option>1xx</option><option>2xx</option><option>3xx</option><option>4xx</option><option>5xx</option><option value="failed">failed</option></select></label>
        <label>Text <input id="text" type="search" placeholder="URL, header or body contains…"></label>
        <span id="count"></span>
        </form>
        <div id="list" role="table" aria-label="Interactions">
        <div class="tr head" role="row"><span role="columnheader">#</span><span role="columnheader">Method</span><span role="columnheader">URL</span>\
        <span class="num" role="columnheader">Status</span><span class="num" role="columnheader">Size</span><span role="columnheader">Recorded</span>\
        <span class="num" role="columnheader">Age</span></div>
        <div id="rows" role="rowgroup"></div></div>
        <section id="detail" hidden></section>
        """

    private static let viewerScript = """
        const data = JSON.parse(document.getElementById('data').textContent);
        const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
        const method = document.getElementById('method'), status = document.getElementById('status'), text = document.getElementById('text');
        [...new Set(data.map(d => d.method))].sort().forEach(m => method.appendChild(el('option', m)));
        // Each row's searchable text is lower-cased once, when first searched, not at every keystroke.
        const haystack = d => d.hay ??= [d.url, d.failure, d.request.body, d.response.body, ...d.request.headers.flat(), ...d.response.headers.flat()].join('\\n').toLowerCase();
        function matches(d) {
          if (method.value && d.method !== method.value) return false;
          if (status.value === 'failed' && typeof d.status === 'number') return false;
          if (status.value && status.value !== 'failed' && !(typeof d.status === 'number' && String(d.status)[0] === status.value[0])) return false;
          return !text.value || haystack(d).includes(text.value.toLowerCase());
        }
        function side(title, part) {
          const s = el('div', undefined, 'side'); s.appendChild(el('h3', title));
          const t = el('table', undefined, 'headers');
          part.headers.forEach(([n, v]) => { const r = el('tr'); r.appendChild(el('th', n)); r.appendChild(el('td', v)); t.appendChild(r); });
          s.appendChild(t); if (part.body) s.appendChild(el('pre', part.body, 'body')); return s;
        }
        function show(d) {
          const detail = document.getElementById('detail'); detail.replaceChildren(); detail.hidden = false;
          detail.appendChild(el('h2', '#' + d.index + ' ' + d.method + ' ' + d.url + ' → ' + d.status));
          if (d.failure) detail.appendChild(el('p', 'recorded failure: ' + d.failure, 'failure'));
          detail.appendChild(side('Request', d.request)); detail.appendChild(side('Response', d.response));
          document.querySelectorAll('#rows .tr').forEach(r => r.classList.toggle('selected', r.dataset.index === String(d.index)));
          detail.scrollIntoView({block: 'start'});
        }
        // Rows are built as one escaped string and set at once, as grid rows the browser lays out
        // only when they scroll into view (a table lays out every cell first): 10,000 rows stay quick.
        const esc = v => String(v).replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
        function render() {
          const rows = document.getElementById('rows'); let shown = 0; const html = [];
          data.forEach((d, i) => {
            if (!matches(d)) return; shown++;
            const bad = typeof d.status !== 'number' || d.status >= 400 ? ' bad' : '';
            html.push('<div class="tr' + bad + '" role="row" tabindex="0" data-index="' + d.index + '" data-at="' + i + '"><span>' + d.index + '</span><span class="method">' + esc(d.method)
              + '</span><span class="url">' + esc(d.url) + '</span><span class="num">' + esc(d.status) + '</span><span class="num">' + esc(d.size)
              + '</span><span>' + esc(d.recordedAt) + '</span><span class="num">' + esc(d.age) + '</span></div>');
          });
          rows.innerHTML = html.join('');
          document.getElementById('count').textContent = shown + ' of ' + data.length + ' shown';
        }
        // The filters and the shown interaction live in the address (#method=GET&status=4xx&text=…&show=3),
        // so a view can be bookmarked or sent; an address changed in the tab is applied too.
        let shownIndex = null;
        function remember() {
          const h = new URLSearchParams();
          [['method', method.value], ['status', status.value], ['text', text.value], ['show', shownIndex]].forEach(([k, v]) => { if (v) h.set(k, v); });
          history.replaceState(null, '', '#' + h.toString());
        }
        function open(row) { if (!row) return; shownIndex = row.dataset.index; show(data[Number(row.dataset.at)]); remember(); }
        document.getElementById('rows').addEventListener('click', e => open(e.target.closest('.tr')));
        document.getElementById('rows').addEventListener('keydown', e => { if (e.key === 'Enter') open(e.target.closest('.tr')); });
        function fromAddress() {
          const params = new URLSearchParams(location.hash.slice(1));
          method.value = params.get('method') || ''; status.value = params.get('status') || ''; text.value = params.get('text') || '';
          shownIndex = params.get('show');
          render();
          const shown = data.find(d => String(d.index) === shownIndex);
          if (shown) show(shown); else document.getElementById('detail').hidden = true;
        }
        // Typing waits for a pause before filtering (each filter reads every row).
        let typing;
        [method, status].forEach(c => c.addEventListener('input', () => { render(); remember(); }));
        text.addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(() => { render(); remember(); }, 150); });
        window.addEventListener('hashchange', fromAddress);
        fromAddress();
        """

    private static let diffBody = """
        <p id="count"></p>
        <div id="entries"></div>
        """

    private static let diffScript = """
        const data = JSON.parse(document.getElementById('data').textContent);
        const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
        const entries = document.getElementById('entries');
        data.forEach(d => {
          const box = el('div', undefined, 'entry ' + d.kind);
          const head = el('p'); head.appendChild(el('b', d.label)); head.appendChild(document.createTextNode(' ' + d.summary)); box.appendChild(head);
          if (d.changes.length) { const list = el('ul'); d.changes.forEach(c => list.appendChild(el('li', c))); box.appendChild(list); }
          entries.appendChild(box);
        });
        document.getElementById('count').textContent = data.length ? data.length + ' difference' + (data.length === 1 ? '' : 's') : 'the cassettes are the same';
        """

    private static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:90em;padding:0 1em;color:#1b1f24}\
        h1{font-size:1.3em}form{display:flex;gap:1.2em;align-items:center;margin:1em 0}#count{color:#57606a}\
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25em .6em;border-bottom:1px solid #e4e4e4}\
        .tr{display:grid;grid-template-columns:4em 6em minmax(0,1fr) 5em 6em 15.5em 5em;border-bottom:1px solid #e4e4e4}\
        .tr>span{padding:.25em .6em;min-width:0}.tr.head{font-weight:700;border-bottom-width:2px;position:sticky;top:0;background:#fff;z-index:1}.num{text-align:right}\
        #rows .tr{cursor:pointer;content-visibility:auto;contain-intrinsic-size:auto 1.9em}#rows .tr:hover{background:#f3f6fa}\
        #rows .tr.selected{background:#dbeafe}#rows .tr:focus{outline:2px solid #0969da}#list{max-height:60vh;overflow:auto}#rows .tr.bad{color:#c62828}#rows .method{font-weight:700}.url{word-break:break-all}\
        #detail{margin-top:1.5em;border-top:2px solid #1b1f24}#detail .side{margin:.5em 0}.failure{color:#c62828}\
        table.headers th{width:16em;color:#57606a}pre{background:#f6f8fa;padding:.6em;overflow:auto;white-space:pre-wrap;word-break:break-all}\
        .entry{border-left:4px solid #999;padding:.2em .8em;margin:.6em 0}.entry.added{border-color:#1a7f37;background:#eafbea}\
        .entry.removed{border-color:#c62828;background:#fdecea}.entry.changed{border-color:#bf8700;background:#fff8e1}
        """
}
