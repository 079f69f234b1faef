"""The bundled catalog's quality report: how many games have each field, what kinds of release they are,
namesakes, and scores worth a second look. `python3 tools/build_catalog.py --report` prints it."""

import collections

from catalog_rules import MATURE_CODES, key


def report(rows, notes, secondary_types):
    n = len(rows)
    lines = [f"Catalog quality report: {n} games"]

    def share(count):
        return f"{count:>6} ({100 * count / n:4.1f} %)"

    fields = [
        ("IGDB id", lambda g: "id" in g),
        ("release date", lambda g: g.get("first_release_date")),
        ("summary", lambda g: g.get("summary")),
        ("cover", lambda g: g.get("cover")),
        ("genres", lambda g: g.get("genres")),
        ("platforms", lambda g: g.get("platforms")),
        ("game modes", lambda g: g.get("game_modes")),
        ("developer", lambda g: any(c.get("developer") for c in g.get("involved_companies", []))),
        ("publisher", lambda g: any(c.get("publisher") for c in g.get("involved_companies", []))),
        ("critic score with its count", lambda g: g.get("aggregated_rating") is not None),
        ("  of those, 5 critics or more (/top)", lambda g: (g.get("aggregated_rating_count") or 0) >= 5),
        ("age rating", lambda g: g.get("age_ratings")),
        ("  of those, mature (ESRB M/AO)", lambda g: any(r["rating"] in MATURE_CODES for r in g.get("age_ratings", []))),
        ("game type", lambda g: g.get("game_type")),
        ("engine", lambda g: g.get("game_engines")),
    ]
    lines.append("Fields:")
    for label, test in fields:
        lines.append(f"  {label:<40} {share(sum(1 for g in rows if test(g)))}")
    types = collections.Counter((g.get("game_type") or {}).get("type", "unlabelled") for g in rows)
    lines.append("Kinds of release: " + ", ".join(f"{t} {c}" for t, c in types.most_common()))
    lines.append(f"  main games or unlabelled: {sum(c for t, c in types.items() if t not in secondary_types)}, "
                 f"add-ons, editions, bundles and ports: {sum(c for t, c in types.items() if t in secondary_types)}")
    names = collections.Counter(k for k in (key(g["name"]) for g in rows) if k)
    shared = {k: c for k, c in names.items() if c > 1}
    lines.append(f"Namesakes: {len(shared)} names are shared by {sum(shared.values())} games "
                 f"(remakes, ports, unrelated games); most: "
                 + ", ".join(f"{k} ×{c}" for k, c in sorted(shared.items(), key=lambda x: -x[1])[:5]))
    genres = collections.Counter(x["name"] for g in rows for x in g.get("genres", []))
    platforms = {x["name"] for g in rows for x in g.get("platforms", [])}
    lines.append(f"Genres: {len(genres)} names, all IGDB's; platforms: {len(platforms)} names")
    scored = [g for g in rows if g.get("aggregated_rating") is not None]
    few = [g for g in scored if g["aggregated_rating_count"] < 5]
    extreme = [g for g in scored if (g["aggregated_rating"] >= 97 or g["aggregated_rating"] <= 20)
               and g["aggregated_rating_count"] < 10]
    lines.append(f"Suspicious scores: {len(few)} from fewer than 5 critics (shown with their count, not ranked "
                 f"in /top); {len(extreme)} at 97+ or 20- from fewer than 10 (" + ", ".join(
                     f"{g['name']} {g['aggregated_rating']:.0f}/{g['aggregated_rating_count']}"
                     for g in sorted(extreme, key=lambda g: -g["aggregated_rating_count"])[:4]) + ")")
    future = sum(1 for g in rows if (g.get("first_release_date") or 0) > 1798761600)
    lines.append(f"Release dates after 2026: {future} (placeholders in the source)")
    for label, count in notes.items():
        lines.append(f"{label}: {count}")
    lines.append("Not in any source: engines by game, IGDB rating counts for most games, PEGI ratings.")
    return "\n".join(lines)
