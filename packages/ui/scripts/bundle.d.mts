/** Writes assets/sightline-ui.js; resolves once it is on disk. */
export function bundle(): Promise<void>
