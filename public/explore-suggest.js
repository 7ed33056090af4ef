// Suggestions under the search box as the user types, each opening its PPA's detail.
import { API } from './explore-contract.js';
import { $, countryName, el, getJson, label, marked, say, showUrl } from './explore-dom.js';
import { openDetail } from './explore-detail.js';

/** The pause in typing after which suggestions are asked for. */
const SUGGEST_DELAY_MS = 150;

let suggestTimer;
let suggestRequest = 0;
let active = -1;

function closeSuggestions() {
  // A suggestion still on its way is dropped too: it must not open the list after a search ran.
  clearTimeout(suggestTimer);
  suggestRequest++;
  $('suggestions').hidden = true;
  $('suggestions').replaceChildren();
  $('q').setAttribute('aria-expanded', 'false');
  $('q').removeAttribute('aria-activedescendant');
  active = -1;
}

function highlight(index) {
  const options = [...$('suggestions').children];
  if (!options.length) return;
  active = (index + options.length) % options.length;
  options.forEach((option, i) => option.setAttribute('aria-selected', String(i === active)));
  $('q').setAttribute('aria-activedescendant', options[active].id);
}

async function suggest(text) {
  const request = ++suggestRequest;
  const url = `${API}/suggest?${new URLSearchParams({ q: text, limit: '8', highlight: 'true' })}`;
  showUrl('suggest-url', url);
  try {
    const { data } = await getJson(url);
    if (request !== suggestRequest) return; // a later keystroke already asked again
    const options = data.map((item, index) => {
      const option = el(
        'li',
        { id: `suggestion-${index}`, role: 'option' },
        ...marked(item.project_name, item.highlights?.project_name),
        el('span', {
          className: 'meta',
          textContent: [label(item.technology), countryName(item.country_code)].filter(Boolean).join(' · '),
        }),
      );
      option.setAttribute('aria-selected', 'false');
      option.dataset.slug = item.slug;
      option.addEventListener('mousedown', (event) => event.preventDefault());
      option.addEventListener('click', () => choose(option));
      return option;
    });
    $('suggestions').replaceChildren(...options);
    $('suggestions').hidden = options.length === 0;
    $('q').setAttribute('aria-expanded', String(options.length > 0));
    active = -1;
  } catch (error) {
    say(error.message);
  }
}

function choose(option) {
  closeSuggestions();
  openDetail(option.dataset.slug);
}

/** The search box's suggestions: asked for as the user types (after a pause), walked with the arrow keys. */
function wireSuggestions(input) {
  input.addEventListener('input', () => {
    clearTimeout(suggestTimer);
    const text = input.value.trim();
    if (!text) return closeSuggestions();
    suggestTimer = setTimeout(() => suggest(text), SUGGEST_DELAY_MS);
  });
  input.addEventListener('keydown', (event) => {
    const open = !$('suggestions').hidden;
    if (event.key === 'ArrowDown' && open) {
      event.preventDefault();
      highlight(active + 1);
    } else if (event.key === 'ArrowUp' && open) {
      event.preventDefault();
      highlight(active - 1);
    } else if (event.key === 'Enter' && open && active >= 0) {
      event.preventDefault();
      choose($('suggestions').children[active]);
    } else if (event.key === 'Escape') {
      closeSuggestions();
    }
  });
  input.addEventListener('blur', () => setTimeout(closeSuggestions, 100)); // not an API bound: a pause in ms
}

export { closeSuggestions, wireSuggestions };
