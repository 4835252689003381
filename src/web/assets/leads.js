// Lead lists (the page works without this file: the form submits and the results say the count).
// After a search the page opens at #results: focus moves there, so that keyboard and screen
// reader users start at the results, not at the top of the form. While the filters change, the
// live count asks <list>/count for the number of matches and says it (aria-live). Text is set
// with textContent only.
(function () {
  'use strict';
  if (window.location.hash === '#results') {
    var results = document.getElementById('results');
    if (results) results.focus();
  }
  var form = document.getElementById('filters');
  var count = document.getElementById('live-count');
  if (!form || !count || !window.fetch || !window.URLSearchParams) return;
  var url = count.getAttribute('data-count-url');
  var DEBOUNCE_MS = 350;
  var timer = 0;
  var controller = null;
  var asked = 0;

  function query() {
    var params = new URLSearchParams();
    new window.FormData(form).forEach(function (value, name) {
      if (typeof value === 'string' && value.trim() !== '') params.append(name, value);
    });
    return params.toString();
  }

  function ask() {
    if (controller) controller.abort();
    controller = window.AbortController ? new AbortController() : null;
    var mine = ++asked;
    count.textContent = 'Counting…';
    fetch(url + '?' + query(), {
      headers: { accept: 'application/json' },
      signal: controller ? controller.signal : undefined,
    })
      .then(function (response) {
        return response.json().then(function (body) {
          return { ok: response.ok, status: response.status, body: body };
        });
      })
      .then(function (answer) {
        // Only the newest question's answer is shown.
        if (mine !== asked) return;
        if (answer.ok) count.textContent = answer.body.text;
        else if (answer.status === 429)
          count.textContent = 'Too many counts just now: show the companies to see the count.';
        else count.textContent = answer.body.error || 'These filters cannot be counted.';
      })
      .catch(function (error) {
        if (mine !== asked || (error && error.name === 'AbortError')) return;
        count.textContent = 'The count could not be fetched: show the companies to see it.';
      });
  }

  function changed() {
    window.clearTimeout(timer);
    timer = window.setTimeout(ask, DEBOUNCE_MS);
  }
  form.addEventListener('input', changed);
  form.addEventListener('change', changed);
})();
