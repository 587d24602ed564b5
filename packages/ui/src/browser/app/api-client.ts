/** An answer other than 2xx, in words: the server's `detail` when it sent PostHog's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

/** The calls the page makes, with the personal API key, relative to the page (so under any base path). */
export interface Api {
  get<T>(path: string, signal?: AbortSignal): Promise<T>
  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>
}

/**
 * A client of the page's own server. `base` is the page's URL: paths such as
 * `api/projects/` resolve against it, and so do the people URLs the server
 * writes from its root (`/api/...` or `api/...`), whose leading `/` is dropped
 * so the base path stays.
 */
export function createApi(key: string, base: string, fetcher: typeof fetch = fetch): Api {
  const call = async <T>(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<T> => {
    const url = new URL(path.replace(/^\//, ''), base)
    let response: Response
    try {
      response = await fetcher(url, {
        method,
        signal,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch (error) {
      if (signal?.aborted) throw error
      throw new ApiError(0, 'The server could not be reached. Check that Sightline is running and try again.', undefined)
    }
    const text = await response.text()
    if (!response.ok) throw errorOf(response.status, text)
    return (text === '' ? null : JSON.parse(text)) as T
  }
  return {
    get: (path, signal) => call('GET', path, undefined, signal),
    post: (path, body, signal) => call('POST', path, body, signal),
  }
}

function errorOf(status: number, text: string): ApiError {
  let detail: string | undefined
  let code: string | undefined
  try {
    const body = JSON.parse(text) as { detail?: unknown; code?: unknown; attr?: unknown }
    if (typeof body.detail === 'string') detail = body.attr ? `${body.detail} (${String(body.attr)})` : body.detail
    if (typeof body.code === 'string') code = body.code
  } catch {
    // Not PostHog's error body (a proxy's page): the status speaks instead.
  }
  const fallback =
    status === 401 ? 'The personal API key was not accepted.' : status === 403 ? 'This key lacks the scope for this.' : status === 404 ? 'Not found.' : status === 504 ? 'The query took too long and was stopped.' : `The server answered ${status}.`
  return new ApiError(status, detail ?? fallback, code)
}
