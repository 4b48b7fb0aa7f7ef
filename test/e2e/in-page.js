// Read-only probes of the VS Code workbench's DOM, injected into the page by test/e2e/workbench.ts
// (page.addInitScript) and called there as `__e2e.name(...)`. Plain JavaScript that the browser
// runs as it is: functions handed to page.evaluate from TypeScript would be rewritten by tsx.
// Every probe returns plain data describing what is on screen; the harness decides what to wait for.
(() => {
  if (globalThis.__e2e) return;

  const text = (element) => (element ? element.textContent.replace(/\u00a0/g, ' ').trim() : '');
  const visible = (element) => {
    if (!element || !element.isConnected) return false;
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden') return false;
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  // Rows of a monaco list as it renders them (only the rows in view exist in the DOM).
  const listRows = (list) => (list ? [...list.querySelectorAll(':scope .monaco-list-rows > .monaco-list-row')] : []);
  const index = (row) => Number(row.getAttribute('data-index'));
  const isLast = (row) => row.getAttribute('data-last-element') === 'true';

  function activeEditor() {
    const group = document.querySelector('.editor-group-container.active') || document;
    return [...group.querySelectorAll('.monaco-editor')].find(visible) || null;
  }

  function quickInput() {
    const widget = document.querySelector('.quick-input-widget');
    const input = widget && widget.querySelector('.quick-input-box input');
    const rows = listRows(widget && widget.querySelector('.quick-input-list .monaco-list'))
      .filter(visible)
      .map((row) => ({
        index: index(row),
        label: text(row.querySelector('.label-name')),
        description: text(row.querySelector('.label-description')),
        ariaLabel: row.getAttribute('aria-label') || '',
        focused: row.classList.contains('focused'),
      }));
    const message = widget && widget.querySelector('.quick-input-message');
    return {
      visible: visible(widget),
      value: input ? input.value : '',
      inputFocused: !!input && document.activeElement === input,
      message: visible(message) ? text(message) : '',
      rows,
    };
  }

  function activeTab() {
    const tab = document.querySelector('.editor-group-container.active .tab.active');
    return tab ? { name: tab.getAttribute('data-resource-name') || text(tab.querySelector('.label-name')), ariaLabel: tab.getAttribute('aria-label') || '' } : null;
  }

  // Focus anywhere in the active editor: its text, or one of its own widgets (find, rename).
  function editorFocused() {
    const editor = activeEditor();
    return !!editor && !!document.activeElement && editor.contains(document.activeElement);
  }

  // The Problems panel: rows in view, files (level 1) and markers (level 2).
  function problemsPanel() {
    const panel = document.querySelector('.markers-panel');
    const list = panel && panel.querySelector('.tree-container .monaco-list');
    const messageBox = panel && panel.querySelector('.message-box-container');
    const rows = listRows(list).map((row) => {
      const level = Number(row.getAttribute('aria-level') || 0);
      const base = { index: index(row), level, last: isLast(row), ariaLabel: row.getAttribute('aria-label') || '' };
      if (level === 1) {
        const label = row.querySelector('.monaco-icon-label');
        return {
          ...base,
          kind: 'file',
          path: (label && label.getAttribute('aria-label')) || '',
          name: text(row.querySelector('.label-name')),
          description: text(row.querySelector('.label-description')),
        };
      }
      if (row.querySelector('.marker-icon')) {
        const icon = row.querySelector('.marker-icon');
        const severity = ['error', 'warning', 'info'].find((name) => icon.classList.contains(name)) || 'unknown';
        const position = /Ln\s+(\d+),\s*Col\s+(\d+)/.exec(text(row.querySelector('.marker-line')));
        return {
          ...base,
          kind: 'marker',
          severity,
          message: [...row.querySelectorAll('.marker-message')].map(text).join('\n'),
          source: text(row.querySelector('.marker-source')),
          code: text(row.querySelector('.marker-code')),
          line: position ? Number(position[1]) : 0,
          column: position ? Number(position[2]) : 0,
        };
      }
      return { ...base, kind: 'other' };
    });
    const summary = document.getElementById('markers-panel-arialabel');
    return {
      visible: visible(panel),
      summary: summary ? summary.getAttribute('aria-label') || '' : '',
      focused: !!panel && !!document.activeElement && panel.contains(document.activeElement),
      message: visible(messageBox) ? text(messageBox) : '',
      rows,
    };
  }

  function suggestWidget() {
    const widget = [...document.querySelectorAll('.suggest-widget')].find((w) => w.classList.contains('visible') && visible(w));
    if (!widget) return { visible: false, message: '', total: 0, items: [] };
    const message = widget.querySelector('.message');
    const rows = listRows(widget.querySelector('.monaco-list'));
    return {
      visible: true,
      message: visible(message) ? text(message) : '',
      total: rows.length > 0 ? Number(rows[0].getAttribute('aria-setsize') || rows.length) : 0,
      items: rows.map((row) => {
        const icon = row.querySelector('.suggest-icon');
        const kind = icon ? ([...icon.classList].find((name) => name.startsWith('codicon-symbol-')) || '').replace('codicon-symbol-', '') : '';
        return {
          index: index(row),
          label: text(row.querySelector('.label-name')),
          detail: text(row.querySelector('.details-label')),
          kind,
          focused: row.classList.contains('focused'),
          last: isLast(row),
        };
      }),
    };
  }

  // The editor's content hover (not the gutter's), as text.
  function hover() {
    const hovers = [...document.querySelectorAll('.monaco-editor .monaco-hover, .overflowingContentWidgets .monaco-hover')].filter(
      (h) => !h.classList.contains('hidden') && h.getAttribute('widgetid') !== 'editor.contrib.modesGlyphHoverWidget' && visible(h),
    );
    const content = hovers.map((h) => h.querySelector('.monaco-hover-content') || h);
    return { visible: hovers.length > 0, text: content.map((c) => c.innerText.trim()).join('\n').trim() };
  }

  function actionWidget() {
    const widget = [...document.querySelectorAll('.action-widget')].find(visible);
    const rows = listRows(widget && widget.querySelector('.monaco-list'));
    const editor = activeEditor();
    const overlay = editor && [...editor.querySelectorAll('.monaco-editor-overlaymessage')].find(visible);
    return {
      visible: !!widget,
      message: overlay ? text(overlay) : '',
      items: rows
        .filter((row) => row.classList.contains('action'))
        .map((row) => ({
          index: index(row),
          title: text(row.querySelector('.title')) || row.getAttribute('aria-label') || '',
          focused: row.classList.contains('focused'),
          disabled: row.classList.contains('option-disabled'),
        })),
    };
  }

  // The box of the character just right of the active editor's cursor (the cursor having been
  // put there first), found among the text of the rendered line: exact with tabs and wide text.
  function charBoxAtCursor() {
    const editor = activeEditor();
    const cursor = editor && editor.querySelector('.cursors-layer .cursor');
    if (!cursor) return { error: 'no cursor in the active editor' };
    const at = cursor.getBoundingClientRect();
    const middle = at.top + at.height / 2;
    const line = [...editor.querySelectorAll('.view-lines .view-line')].find((l) => {
      const box = l.getBoundingClientRect();
      return box.top <= middle && middle < box.bottom;
    });
    if (!line) return { error: `no rendered line at the cursor (y ${Math.round(middle)})` };
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let best = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let offset = 0; offset < node.length; offset++) {
        range.setStart(node, offset);
        range.setEnd(node, offset + 1);
        const box = range.getBoundingClientRect();
        const distance = Math.abs(box.left - at.left);
        if (box.width > 0 && distance < 3 && (!best || distance < best.distance)) {
          best = { distance, x: box.left, y: box.top, width: box.width, height: box.height, char: node.data[offset] };
        }
      }
    }
    if (!best) return { error: `no character right of the cursor on the line "${text(line)}"` };
    return { x: best.x, y: best.y, width: best.width, height: best.height, char: best.char };
  }

  globalThis.__e2e = { quickInput, activeTab, editorFocused, problemsPanel, suggestWidget, hover, actionWidget, charBoxAtCursor };
})();
