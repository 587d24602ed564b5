import type { Sightline } from '@sightline/core'

/**
 * The saved insights and the dashboard the demo's page opens on: one of each
 * analysis over the sample data's own events. Dates are relative, so they
 * stay full on the real clock the demo serves on.
 */
export const DEMO_INSIGHTS: ReadonlyArray<{ readonly name: string; readonly onDashboard: boolean; readonly filters: Readonly<Record<string, unknown>> }> = [
  { name: 'Daily signups', onDashboard: true, filters: { insight: 'TRENDS', events: [{ id: 'signup', math: 'total' }], date_from: '-30d', interval: 'day' } },
  {
    name: 'Signup funnel',
    onDashboard: true,
    filters: { insight: 'FUNNELS', events: [{ id: 'signup_started', order: 0 }, { id: 'signup', order: 1 }, { id: 'onboarding_completed', order: 2 }], date_from: '-30d' },
  },
  {
    name: 'Weekly retention',
    onDashboard: true,
    filters: { insight: 'RETENTION', target_entity: { id: 'signup', type: 'events' }, returning_entity: { id: '$pageview', type: 'events' }, period: 'Week', total_intervals: 8 },
  },
  { name: 'Page views by browser', onDashboard: true, filters: { insight: 'TRENDS', events: [{ id: '$pageview', math: 'dau' }], breakdown: '$browser', date_from: '-30d', interval: 'week', display: 'ActionsBar' } },
  { name: 'Page flow', onDashboard: false, filters: { insight: 'PATHS', include_event_types: ['$pageview'], date_from: '-7d', step_limit: 4, edge_limit: 30 } },
  { name: 'Visitors by country', onDashboard: false, filters: { insight: 'TRENDS', events: [{ id: '$pageview', math: 'dau' }], breakdown: '$geoip_country_code', date_from: '-30d', display: 'WorldMap' } },
  { name: 'Stickiness of page views', onDashboard: false, filters: { insight: 'STICKINESS', events: [{ id: '$pageview', math: 'dau' }], date_from: '-30d' } },
  { name: 'Lifecycle of visitors', onDashboard: false, filters: { insight: 'LIFECYCLE', events: [{ id: '$pageview' }], date_from: '-30d', interval: 'week' } },
]

/** Saves `DEMO_INSIGHTS` in the project, with a dashboard "Demo overview" holding the first four. */
export async function createDemoInsights(sightline: Sightline, projectId: number, userId: number): Promise<void> {
  const actor = { userId }
  const dashboard = await sightline.dashboards.create(projectId, { name: 'Demo overview', description: 'Signups, the signup funnel, retention and browsers over the sample data' }, actor)
  for (const insight of DEMO_INSIGHTS) {
    await sightline.insights.create(projectId, { name: insight.name, filters: { ...insight.filters }, saved: true, dashboards: insight.onDashboard ? [dashboard.id] : [] }, actor)
  }
}
