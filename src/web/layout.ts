/**
 * The frame of every page: the document head (the one stylesheet, the page's own scripts as
 * files, deferred), a skip link, the site header with its navigation, the page's <main>, a footer.
 * Landmarks and one <h1> per page (the page writes it) are what screen readers navigate by.
 */
import type { HtmlValue, SafeHtml } from './html.ts';
import { html } from './html.ts';

/** A link of the site's navigation. */
export interface NavLink {
  href: string;
  label: string;
}

export interface PageView {
  /** The <title>, before " · UK company data". */
  title: string;
  /** The meta description; DEFAULT_DESCRIPTION when absent. */
  description?: string | undefined;
  /** The content of <main>, starting with the page's <h1>. */
  main: SafeHtml;
  /** Script files of the page, served from /assets/ (CSP: 'self' only, never inline). */
  scripts?: readonly string[];
  /** The path of the page, to mark its navigation link as the current one. */
  path: string;
}

export interface Frame {
  nav: readonly NavLink[];
  /** The header's right-hand part: who is signed in and the sign-out form, or the sign-in link. */
  account?: SafeHtml | undefined;
  /** How fresh the data is ("Data as of: register …"), for the footer; left out when it could not be read. */
  asOf?: string | undefined;
}

const SITE_NAME = 'UK company data';
const DEFAULT_DESCRIPTION =
  'UK companies from the Companies House register: find a company by name or number, its filed accounts, ' +
  'ownership and risk, lead lists and market statistics.';

/** Paths that carry the search form in their page, so the header's would be a second one. */
const SEARCH_PATHS: ReadonlySet<string> = new Set(['/', '/search']);

/** The whole document of a page. */
export function layout(view: PageView, frame: Frame): SafeHtml {
  return html`<!doctype html>
    <html lang="en-GB">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${view.title} · ${SITE_NAME}</title>
        <meta name="description" content="${view.description ?? DEFAULT_DESCRIPTION}" />
        <link rel="stylesheet" href="/assets/site.css" />
        <!-- No icon: an empty one, so browsers do not ask for /favicon.ico (a 404 in the console). -->
        <link rel="icon" href="data:," />
        ${(view.scripts ?? []).map((name) => html`<script src="/assets/${name}" defer></script> `)}
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <header class="site-header">
          <a class="site-name" href="/">${SITE_NAME}</a>
          <nav aria-label="Site">
            <ul>
              ${frame.nav.map((link) => navItem(link, view.path))}
            </ul>
          </nav>
          ${SEARCH_PATHS.has(view.path) ? '' : siteSearch()} ${frame.account}
        </header>
        <main id="main" tabindex="-1">${view.main}</main>
        <footer class="site-footer">
          <p>
            Data from Companies House (the register, accounts and persons with significant control), under the Open
            Government Licence. Figures are as filed; a risk band is not a credit rating.
            <a href="/docs">API reference</a>
          </p>
          ${frame.asOf ? html`<p class="as-of">${frame.asOf}.</p>` : ''}
        </footer>
      </body>
    </html> `;
}

/**
 * The header's search box: a plain GET form to the search page (a company number goes straight
 * to its company there), so it works on every page without a script.
 */
function siteSearch(): SafeHtml {
  return html`<form class="site-search" role="search" aria-label="Companies" action="/search" method="get">
    <label for="site-search" class="visually-hidden">Company name or number</label>
    <input id="site-search" name="name" type="search" maxlength="200" autocomplete="off" spellcheck="false" required placeholder="Company name or number" />
    <button type="submit">Search</button>
  </form>`;
}

function navItem(link: NavLink, path: string): HtmlValue {
  const current = link.href === '/' ? path === '/' : path === link.href || path.startsWith(`${link.href}/`);
  return html`<li><a href="${link.href}" ${current ? html` aria-current="page"` : ''}>${link.label}</a></li> `;
}
