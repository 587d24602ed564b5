/**
 * The world's countries for ECharts' map series: Natural Earth's 1:110m
 * countries (world-atlas, TopoJSON, 38 kB gzipped), bundled with the page so
 * nothing is fetched at run time, and turned into GeoJSON once, on the first
 * map drawn. Countries are keyed by ISO 3166-1 alpha-2 code, as
 * `$geoip_country_code` (PostHog's world map breakdown) holds them:
 * world-atlas names countries by their numeric code, which
 * i18n-iso-countries' code table maps to alpha-2.
 */
import codes from 'i18n-iso-countries/codes.json' with { type: 'json' }
import { feature } from 'topojson-client'
import atlas from 'world-atlas/countries-110m.json' with { type: 'json' }
import { registerMap } from './echarts.js'

/** The name the geometry is registered under in ECharts. */
export const WORLD_MAP = 'sightline-world'

/** Countries Natural Earth draws without an ISO numeric code, by its name: Kosovo's user-assigned `XK` is what GeoIP databases give. */
const UNCODED: Readonly<Record<string, string>> = { Kosovo: 'XK' }

/** Antarctica (010) would take a fifth of the map's height for the rare event from there; its rows stay in the table. */
const LEFT_OUT = new Set(['010'])

let countries: ReadonlyMap<string, string> | null = null

/**
 * Registers the world geometry with ECharts (once) and answers the countries
 * it draws: alpha-2 code to Natural Earth's short name (`United States of America`).
 */
export function worldCountries(): ReadonlyMap<string, string> {
  if (countries !== null) return countries
  const alpha2 = new Map((codes as ReadonlyArray<ReadonlyArray<string>>).map((row) => [row[2], row[0]]))
  const topology = atlas as unknown as Parameters<typeof feature>[0]
  const collection = feature(topology, (atlas.objects.countries as unknown as Parameters<typeof feature>[1])) as unknown as {
    type: 'FeatureCollection'
    features: Array<{ id?: string | number; properties: { name?: string; iso?: string }; geometry: Geometry | null }>
  }
  const named = new Map<string, string>()
  collection.features = collection.features.filter((f) => !LEFT_OUT.has(String(f.id)))
  for (const f of collection.features) {
    const name = f.properties.name ?? ''
    const iso = (f.id === undefined ? undefined : alpha2.get(String(f.id))) ?? UNCODED[name]
    // A country with no code (Northern Cyprus, Somaliland) keeps a key no answer can hold, so it is drawn but never matched.
    f.properties = { name, iso: iso ?? `-${name}` }
    if (f.geometry !== null) f.geometry = { type: 'MultiPolygon', coordinates: polygonsOf(f.geometry).flatMap(splitAtAntimeridian) }
    if (iso !== undefined) named.set(iso, name)
  }
  registerMap(WORLD_MAP, collection as never)
  countries = named
  return named
}

type Ring = Array<[number, number]>
type Geometry = { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] }

const polygonsOf = (g: Geometry): Ring[][] => (g.type === 'Polygon' ? [g.coordinates] : g.coordinates)

/**
 * A polygon that crosses the 180th meridian (Russia's Chukotka, Fiji) as the
 * parts on either side. world-atlas leaves such rings whole for a spherical
 * renderer (d3-geo cuts them); ECharts draws longitude flat, so a ring's
 * step from 179.9 to -179.9 became a line across the whole map. Each ring is
 * made continuous (longitudes past 180), then clipped to the map once as it
 * is and once moved a turn back.
 */
function splitAtAntimeridian(polygon: Ring[]): Ring[][] {
  const unwrapped = polygon.map((ring) => {
    let shift = 0
    return ring.map(([lon, lat], i): [number, number] => {
      const before = i > 0 ? ring[i - 1]![0] : lon
      if (lon - before > 180) shift -= 360
      else if (before - lon > 180) shift += 360
      return [lon + shift, lat]
    })
  })
  const lons = unwrapped.flat().map(([lon]) => lon)
  const [west, east] = [Math.min(...lons), Math.max(...lons)]
  if (west >= -180 && east <= 180) return [polygon]
  const turn = east > 180 ? -360 : 360
  const moved = unwrapped.map((ring) => ring.map(([lon, lat]): [number, number] => [lon + turn, lat]))
  return [unwrapped, moved].map((rings) => rings.map(clipToMap).filter((ring) => ring.length >= 4)).filter((rings) => rings.length > 0)
}

/** A ring cut to longitudes -180..180 (Sutherland-Hodgman against each edge), closed again. */
function clipToMap(ring: Ring): Ring {
  const edge = (points: Ring, inside: (lon: number) => boolean, at: number): Ring => {
    const out: Ring = []
    points.forEach((p, i) => {
      const q = points[(i + 1) % points.length]!
      if (inside(p[0])) out.push(p)
      if (inside(p[0]) !== inside(q[0])) out.push([at, p[1] + ((q[1] - p[1]) * (at - p[0])) / (q[0] - p[0])])
    })
    return out
  }
  const open = ring.slice(0, -1)
  const clipped = edge(edge(open, (lon) => lon <= 180, 180), (lon) => lon >= -180, -180)
  return clipped.length === 0 ? [] : [...clipped, clipped[0]!]
}
