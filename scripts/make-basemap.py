#!/usr/bin/env python3
"""Writes Modules/Adapters/WebApp/Resources/web/basemap.geojson, the light offline
basemap the map page draws when no tile server is configured: the streets
and paths of central Helsinki from ../shared/data/helsinki-roads.geojson,
each as a line with its kind (major, minor, path) and name, coordinates to
five decimals (about a metre) (© OpenStreetMap contributors, ODbL 1.0).
  scripts/make-basemap.py [SOURCE] [TARGET]"""
import json
import sys

source = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/helsinki-roads.geojson"
target = sys.argv[2] if len(sys.argv) > 2 else "Modules/Adapters/WebApp/Resources/web/basemap.geojson"
MAJOR = {"primary", "primary_link", "secondary", "tertiary", "tertiary_link", "trunk"}
MINOR = {"residential", "unclassified", "service", "living_street", "pedestrian"}

with open(source, encoding="utf-8") as file:
    data = json.load(file)

features = []
for feature in data["features"]:
    if feature["geometry"]["type"] != "LineString":
        continue
    highway = feature["properties"].get("highway", "")
    kind = "major" if highway in MAJOR else "minor" if highway in MINOR else "path"
    line = [[round(lon, 5), round(lat, 5)] for lon, lat in feature["geometry"]["coordinates"]]
    properties = {"k": kind}
    name = feature["properties"].get("name")
    if name and kind != "path":
        properties["n"] = name
    features.append({"type": "Feature", "properties": properties, "geometry": {"type": "LineString", "coordinates": line}})

collection = {
    "type": "FeatureCollection",
    "attribution": "© OpenStreetMap contributors, ODbL 1.0",
    "features": features,
}
with open(target, "w", encoding="utf-8") as file:
    json.dump(collection, file, ensure_ascii=False, separators=(",", ":"))
print(f"{target}: {len(features)} lines")
