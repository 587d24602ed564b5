/**
 * Pages the handler serves beside the API when the host passes them as the
 * `ui` option: `@sightline/ui`'s `sightlineUi()` is one. The http-adapter
 * only knows this shape, so it never imports the UI package and a host that
 * wants no pages installs none.
 */
export interface UiPages {
  /**
   * Answers a GET or HEAD of `path` (below the base path, e.g. `/` or
   * `/ui/sightline-ui.js`), or null when the path is none of its pages.
   * Asked only for paths no API route matches, so pages never shadow the API.
   */
  serve(path: string, request: Request): Response | null | Promise<Response | null>
}
