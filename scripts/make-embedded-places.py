#!/usr/bin/env python3
"""Writes Modules/Adapters/OSMPlaces/Resources/helsinki-places.geojson, the places
shipped in the package, from ../shared/data/helsinki-pois.geojson: each
named point with its id, name, category, address, other names and
opening hours (© OpenStreetMap contributors, ODbL 1.0).
  scripts/make-embedded-places.py [SOURCE] [TARGET]"""
import json
import sys

source = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/helsinki-pois.geojson"
target = sys.argv[2] if len(sys.argv) > 2 else "Modules/Adapters/OSMPlaces/Resources/helsinki-places.geojson"
OTHER_NAMES = ["name:sv", "name:en", "alt_name", "short_name", "name:fi", "old_name"]

with open(source, encoding="utf-8") as file:
    data = json.load(file)

features = []
for feature in data["features"]:
    p = feature["properties"]
    if feature["geometry"]["type"] != "Point" or not p.get("name"):
        continue
    kept = {"id": p["id"], "name": p["name"], "category": p["category"]}
    address = " ".join(x for x in [p.get("addr:street"), p.get("addr:housenumber")] if x)
    if address:
        kept["address"] = address
    for key in OTHER_NAMES:
        if p.get(key) and p[key] != p["name"]:
            kept[key] = p[key]
    if p.get("opening_hours"):
        kept["opening_hours"] = p["opening_hours"]
    features.append({"type": "Feature", "geometry": {"type": "Point", "coordinates": feature["geometry"]["coordinates"]}, "properties": kept})

out = {"type": "FeatureCollection", "attribution": data["attribution"], "license": data["license"], "features": features}
with open(target, "w", encoding="utf-8") as file:
    json.dump(out, file, ensure_ascii=False, separators=(",", ":"))
