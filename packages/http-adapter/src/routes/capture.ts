import { jsonResponse } from '../errors.js'
import { eventsOf, toCaptureInput } from '../capture/events.js'
import { invalidPayload, readCapturePayload } from '../capture/payload.js'
import { parseSentAt } from '../capture/timestamp.js'
import { checkTokenShape, findToken, invalidToken } from '../capture/token.js'
import { endpoint } from '../route.js'
import { CapturePayload, CaptureResponse } from '../wire/capture.js'

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isEmpty = (v: unknown) => v === undefined || v === null || v === false || v === 0 || v === '' || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0)

/**
 * PostHog's capture endpoint (`posthog/api/capture.py`) for SDKs: no personal
 * API key, the project token in the payload authenticates. The whole payload
 * is stored or none of it: every event is checked first, and core's capture
 * is atomic.
 */
function captureEndpoint(engage: boolean) {
  return endpoint({
    summary: engage
      ? 'Capture, as `/e/`, where a single event becomes an `$identify` (posthog-js identify).'
      : 'Capture events from PostHog SDKs: one event, an array, or `{ api_key, batch, sent_at }`; JSON, gzip or base64 form data. The project token (`api_key`, `token`, `$token`) authenticates.',
    tag: 'capture',
    access: 'public',
    body: 'raw',
    bodyLimit: 'capture',
    documentedBody: CapturePayload,
    cors: true,
    errors: { 401: 'No project token, a malformed one, or one of no project (`code` says which).' },
    responses: { 200: CaptureResponse },
    async handle(ctx) {
      const method = ctx.request.method.toUpperCase()
      const payload = await readCapturePayload(ctx.request, ctx.url, ctx.raw, ctx.options.maxCaptureBodyBytes)
      if (isEmpty(payload.data)) {
        throw invalidPayload('No data found. Make sure to use a POST request when sending the payload in the body of the request.', 'no_data')
      }
      const data = payload.data
      const sentAt = parseSentAt(ctx.query.get('_') || (isObject(data) ? data.sent_at : undefined) || payload.form.get('sent_at'))
      const token = checkTokenShape(findToken(method, ctx.query, payload.form, data))
      const project = await ctx.sightline.projects.getByApiToken(token)
      if (!project) throw invalidToken()
      // Every event is checked before anything is stored: one bad event refuses the whole payload, as PostHog's capture does.
      const { events, list } = eventsOf(data, engage)
      const inputs = events.map((event, index) => toCaptureInput(event, sentAt, list, index))
      await ctx.sightline.capture(project.id, inputs)
      return jsonResponse(200, { status: 1 })
    },
  })
}

export const capture = captureEndpoint(false)
export const engage = captureEndpoint(true)
