/** The page: a shell the bundle fills in (`#sightline-app`); every URL relative, so it works under any base path. */
export function pageHtml(title: string): string {
  const safe = title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${safe}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="ui/sightline-ui.css">
<script type="module" src="ui/sightline-ui.js"></script>
</head>
<body>
<main id="sightline-app" data-title="${safe}"><p>Loading Sightline…</p><noscript>Sightline's pages need JavaScript; the API answers without it.</noscript></main>
</body>
</html>
`
}
