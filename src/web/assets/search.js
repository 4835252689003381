// As-you-type suggestions for the search box (the page works without this file: the form submits).
// The box becomes an ARIA combobox: the arrow keys move through the suggestions, Enter opens the
// chosen company, Escape closes the list. Text is set with textContent only, never as markup.
(function () {
  'use strict';
  var input = document.getElementById('company-search');
  var list = document.getElementById('search-suggestions');
  var status = document.getElementById('search-status');
  if (!input || !list || !status) return;
  var DEBOUNCE_MS = 120;
  var timer = 0;
  var controller = null;
  var active = -1;
  var options = [];

  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');

  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }

  function highlight(index) {
    if (options.length === 0) return;
    active = (index + options.length) % options.length;
    options.forEach(function (option, i) {
      option.setAttribute('aria-selected', i === active ? 'true' : 'false');
    });
    input.setAttribute('aria-activedescendant', options[active].id);
    options[active].scrollIntoView({ block: 'nearest' });
  }

  function open(option) {
    window.location.href = option.getAttribute('data-href');
  }

  function show(answer) {
    list.textContent = '';
    options = answer.results.map(function (hit, i) {
      var item = document.createElement('li');
      item.id = 'suggestion-' + i;
      item.setAttribute('role', 'option');
      item.setAttribute('aria-selected', 'false');
      item.setAttribute('data-href', '/company/' + encodeURIComponent(hit.company_number));
      var name = document.createElement('span');
      name.className = 'suggestion-name';
      name.textContent = hit.name;
      var facts = document.createElement('span');
      facts.className = 'suggestion-facts';
      facts.textContent = [hit.company_number, hit.status, hit.post_town].filter(Boolean).join(' · ');
      item.appendChild(name);
      item.appendChild(facts);
      item.addEventListener('mousedown', function (event) {
        event.preventDefault();
        open(item);
      });
      list.appendChild(item);
      return item;
    });
    active = -1;
    input.removeAttribute('aria-activedescendant');
    list.hidden = options.length === 0;
    input.setAttribute('aria-expanded', options.length === 0 ? 'false' : 'true');
    status.textContent =
      options.length === 0 ? 'No suggestions' : options.length + ' suggestions; use the arrow keys to choose';
  }

  function ask() {
    var name = input.value.trim();
    if (controller) controller.abort();
    if (name === '') {
      close();
      return;
    }
    controller = new AbortController();
    fetch('/search/suggest?name=' + encodeURIComponent(name), {
      signal: controller.signal,
      headers: { Accept: 'application/json' },
    })
      .then(function (response) {
        return response.ok ? response.json() : { results: [] };
      })
      .then(show)
      .catch(function () {
        /* aborted by a newer keystroke, or offline: the form still submits */
      });
  }

  input.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(ask, DEBOUNCE_MS);
  });
  input.addEventListener('keydown', function (event) {
    if (event.key === 'ArrowDown' && options.length > 0) {
      event.preventDefault();
      if (list.hidden) {
        list.hidden = false;
        input.setAttribute('aria-expanded', 'true');
      }
      highlight(active + 1);
    } else if (event.key === 'ArrowUp' && options.length > 0) {
      event.preventDefault();
      highlight(active - 1);
    } else if (event.key === 'Enter' && active >= 0 && !list.hidden) {
      event.preventDefault();
      open(options[active]);
    } else if (event.key === 'Escape') {
      close();
    }
  });
  input.addEventListener('blur', close);
})();
