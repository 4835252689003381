// As-you-type suggestions for the search box (the page works without this file: the form submits).
// The box becomes an ARIA combobox: the arrow keys move through the suggestions, Enter opens the
// chosen company, Escape closes the list. Text is set with textContent only, never as markup.
//
// Only the answer to what the box holds now is ever drawn: each keystroke aborts the request in
// flight and numbers the next, and an answer whose number is not the latest is dropped, so a slow
// answer to "tes" can never be drawn over the list for "tesc". The list says which text it
// answers (data-query), and the status line says in words what is happening: searching, how
// many, none, offline, failed, or too many searches. Near matches (a letter or two different
// from what was typed) follow the others, said to be near, their close words marked.
(function () {
  'use strict';
  var input = document.getElementById('company-search');
  var list = document.getElementById('search-suggestions');
  var status = document.getElementById('search-status');
  if (!input || !list || !status) return;
  var DEBOUNCE_MS = 120;
  var timer = 0;
  var controller = null;
  var latest = 0;
  var active = -1;
  var options = [];

  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');

  function say(state, text) {
    status.setAttribute('data-state', state);
    status.textContent = text;
  }

  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }

  function clear() {
    list.textContent = '';
    list.removeAttribute('data-query');
    options = [];
    close();
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
    // Back from the company returns to this search, with the box and its results as they were.
    var query = list.getAttribute('data-query') || input.value.trim();
    try {
      window.history.replaceState(null, '', '/search?name=' + encodeURIComponent(query));
    } catch {
      /* a browser refusing replaceState still opens the company */
    }
    window.location.href = option.getAttribute('data-href');
  }

  // The query's words, lower case, letters and digits only: what a word of the name may start with.
  function wordsOf(query) {
    return query
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
  }

  // The edits a query word may differ by in a near match (the server's allowedEdits): none up
  // to two letters, one up to five, two from six.
  function allowedEdits(word) {
    return word.length <= 2 ? 0 : word.length <= 5 ? 1 : 2;
  }

  // Whether two words are within `bound` edits (a swap of neighbouring letters is one edit).
  function near(a, b, bound) {
    if (Math.abs(a.length - b.length) > bound) return false;
    var before = [];
    var previous = [];
    for (var j = 0; j <= b.length; j++) previous.push(j);
    for (var i = 1; i <= a.length; i++) {
      var current = [i];
      for (j = 1; j <= b.length; j++) {
        var value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
          value = Math.min(value, before[j - 2] + 1);
        current.push(value);
      }
      before = previous;
      previous = current;
    }
    return previous[b.length] <= bound;
  }

  // The name with the start of each word that a query word begins marked, as DOM nodes (<mark>);
  // in a near match, the whole of each word a query word is a letter or two from.
  function markedName(name, words, nearMatch) {
    var span = document.createElement('span');
    span.className = 'suggestion-name';
    var pattern = /[A-Za-z0-9]+/g;
    var at = 0;
    var match;
    while ((match = pattern.exec(name)) !== null) {
      var word = match[0].toLowerCase();
      var longest = 0;
      words.forEach(function (w) {
        if (w.length > longest && word.indexOf(w) === 0) longest = w.length;
        else if (nearMatch && longest === 0 && w.length > 2 && near(w, word, allowedEdits(w))) longest = word.length;
      });
      if (longest === 0) continue;
      span.appendChild(document.createTextNode(name.slice(at, match.index)));
      var mark = document.createElement('mark');
      mark.textContent = name.slice(match.index, match.index + longest);
      span.appendChild(mark);
      at = match.index + longest;
    }
    span.appendChild(document.createTextNode(name.slice(at)));
    return span;
  }

  function show(query, answer) {
    var words = wordsOf(query);
    list.textContent = '';
    list.setAttribute('data-query', query);
    options = answer.results.map(function (hit, i) {
      var item = document.createElement('li');
      item.id = 'suggestion-' + i;
      item.setAttribute('role', 'option');
      item.setAttribute('aria-selected', 'false');
      item.setAttribute('data-href', '/company/' + encodeURIComponent(hit.company_number));
      var facts = document.createElement('span');
      facts.className = 'suggestion-facts';
      facts.textContent = [hit.company_number, hit.status, hit.post_town, hit.near ? 'near match' : '']
        .filter(Boolean)
        .join(' · ');
      if (hit.near) item.className = 'suggestion-near';
      item.appendChild(markedName(hit.name, words, hit.near === true));
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
    var nearCount = answer.results.filter(function (hit) {
      return hit.near === true;
    }).length;
    if (options.length === 0) say('empty', 'No company name starts like that. Press Search to look wider.');
    else if (nearCount === options.length)
      say(
        'near',
        'No company name starts like that; ' +
          nearCount +
          ' near match' +
          (nearCount === 1 ? '' : 'es') +
          ' (a letter or two different). Use the arrow keys to choose one.',
      );
    else
      say(
        'results',
        options.length +
          ' suggestion' +
          (options.length === 1 ? '' : 's') +
          (answer.total > options.length ? ' of ' + answer.total.toLocaleString('en-GB') : '') +
          '; use the arrow keys to choose, or press Search for every match',
      );
  }

  function failed(state, text) {
    clear();
    say(state, text);
  }

  function ask() {
    var name = input.value.trim();
    var number = ++latest;
    if (name === '') {
      clear();
      say('idle', '');
      return;
    }
    if (window.navigator.onLine === false) {
      failed('offline', 'You are offline, so there are no suggestions. Press Search when you are connected again.');
      return;
    }
    controller = new AbortController();
    say('loading', 'Searching for “' + name + '”…');
    fetch('/search/suggest?name=' + encodeURIComponent(name), {
      signal: controller.signal,
      headers: { Accept: 'application/json' },
    })
      .then(function (response) {
        if (number !== latest) return;
        if (response.status === 429) {
          var wait = Number(response.headers.get('Retry-After')) || 60;
          failed(
            'limited',
            'Too many searches in the last minute: suggestions stop for ' +
              wait +
              ' second' +
              (wait === 1 ? '' : 's') +
              '. Please wait, then type again.',
          );
          return;
        }
        if (!response.ok) {
          failed('error', 'Suggestions could not be loaded just now. Press Search to see the results.');
          return;
        }
        return response.json().then(function (answer) {
          if (number === latest) show(name, answer);
        });
      })
      .catch(function (error) {
        // Aborted by a newer keystroke: that one's answer will be drawn, not this one's.
        if (number !== latest || (error && error.name === 'AbortError')) return;
        if (window.navigator.onLine === false)
          failed('offline', 'You are offline, so there are no suggestions. Press Search when you are connected again.');
        else failed('error', 'Suggestions could not be loaded just now. Press Search to see the results.');
      });
  }

  input.addEventListener('input', function () {
    // The answer in flight is for text the box no longer holds: drop it now, not after the pause.
    latest++;
    if (controller) controller.abort();
    controller = null;
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
  window.addEventListener('offline', function () {
    if (input.value.trim() !== '')
      failed('offline', 'You are offline, so there are no suggestions. Press Search when you are connected again.');
  });
})();
