/** Where the page is: read from the URL's hash, so the server serves one page for every place. */
export type Place =
  | { readonly page: 'projects' }
  | { readonly page: 'project'; readonly projectId: number }
  | { readonly page: 'insight'; readonly projectId: number; readonly insightId: number }
  | { readonly page: 'dashboard'; readonly projectId: number; readonly dashboardId: number }

export function placeOf(hash: string): Place {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean)
  const projectId = Number(parts[1])
  if (parts[0] !== 'project' || !Number.isInteger(projectId)) return { page: 'projects' }
  const id = Number(parts[3])
  if (parts[2] === 'insight' && Number.isInteger(id)) return { page: 'insight', projectId, insightId: id }
  if (parts[2] === 'dashboard' && Number.isInteger(id)) return { page: 'dashboard', projectId, dashboardId: id }
  return { page: 'project', projectId }
}

export const hrefOf = {
  projects: () => '#/',
  project: (projectId: number) => `#/project/${projectId}`,
  insight: (projectId: number, insightId: number) => `#/project/${projectId}/insight/${insightId}`,
  dashboard: (projectId: number, dashboardId: number) => `#/project/${projectId}/dashboard/${dashboardId}`,
}
