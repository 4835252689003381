/**
 * Every path the site and the API do not have: an HTML page saying so (404), with the site's
 * frame and a way on, instead of the API's JSON. Registered last, on every method, for every path
 * outside the API's own: those keep the API's JSON answers (a client of /v1 reads JSON, also when
 * it asks for a path that does not exist).
 */
import { AppError } from '../../errors.ts';
import type { WebPage } from '../page.ts';

/**
 * The paths of the API and the service around it (src/app, src/http, src/mcp): /v1/…, the MCP
 * endpoint, the API reference and document, health and metrics.
 */
const NOT_THE_SITE = /^\/(?!(?:v1|mcp|docs|openapi\.json|healthz|readyz|metrics)(?:\/|$))/;

export const notFoundPage: WebPage = {
  register(router) {
    router.all('web_not_found', NOT_THE_SITE, (ctx) => {
      throw new AppError('NOT_FOUND', `There is no page at ${ctx.path} on this site.`);
    });
  },
};
