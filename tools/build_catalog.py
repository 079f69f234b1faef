#!/usr/bin/env python3
"""Builds the bundled offline catalog from the public data in ../shared/data.

Output: JSON Lines, gzip-compressed, one object per game in IGDB's own /v4/games shape
with expanded fields (the same shape `ggtracker catalog import` reads).

Selection:
  * the 500 games of igdb_top500_raw, fully expanded (covers, companies, modes, types);
  * every game of the big IGDB dump that has a critic rating (with its summary);
  * every game of the sales file, matched to its IGDB record by name and year, adding its
    ESRB rating; a title with no IGDB record becomes a local entry (no IGDB id, keyed by slug);
  * titles beginning with "Th", missing from the big dump, filled from the sales, IGN and
    Steam files so that well-known games are never missing.
Game modes come from Steam's categories where a title matches.

Usage: python3 tools/build_catalog.py [DATA_DIR] [OUT_FILE]
"""

import csv
import datetime
import gzip
import io
import json
import re
import sys
import unicodedata

DATA = sys.argv[1] if len(sys.argv) > 1 else "../shared/data"
OUT = sys.argv[2] if len(sys.argv) > 2 else "Sources/GGTrackerCatalog/Resources/catalog.jsonl.gz"

# IGDB's legacy age-rating codes: category 1 = ESRB; ratings 6 RP, 7 EC, 8 E, 9 E10+, 10 T, 11 M, 12 AO.
ESRB = {"RP": 6, "EC": 7, "K-A": 8, "E": 8, "E10+": 9, "T": 10, "M": 11, "AO": 12}

SALES_PLATFORMS = {
    "2600": ("Atari 2600", "Atari2600"), "3DO": ("3DO Interactive Multiplayer", "3DO"),
    "3DS": ("Nintendo 3DS", "3DS"), "DC": ("Dreamcast", "DC"), "DS": ("Nintendo DS", "NDS"),
    "GB": ("Game Boy", "GB"), "GBA": ("Game Boy Advance", "GBA"), "GC": ("Nintendo GameCube", "NGC"),
    "GEN": ("Sega Mega Drive/Genesis", "Genesis/MegaDrive"), "GG": ("Sega Game Gear", "Game Gear"),
    "N64": ("Nintendo 64", "N64"), "NES": ("Nintendo Entertainment System", "NES"),
    "NG": ("Neo Geo AES", "AES"), "PC": ("PC (Microsoft Windows)", "PC"), "PCFX": ("PC-FX", "PC-FX"),
    "PS": ("PlayStation", "PS1"), "PS2": ("PlayStation 2", "PS2"), "PS3": ("PlayStation 3", "PS3"),
    "PS4": ("PlayStation 4", "PS4"), "PSP": ("PlayStation Portable", "PSP"),
    "PSV": ("PlayStation Vita", "Vita"), "SAT": ("Sega Saturn", "Saturn"), "SCD": ("Sega CD", "Sega CD"),
    "SNES": ("Super Nintendo Entertainment System", "SNES"), "TG16": ("TurboGrafx-16/PC Engine", "TG16"),
    "WS": ("WonderSwan", "WonderSwan"), "Wii": ("Wii", "Wii"), "WiiU": ("Wii U", "WiiU"),
    "X360": ("Xbox 360", "X360"), "XB": ("Xbox", "XBOX"), "XOne": ("Xbox One", "XONE"),
}

SALES_GENRES = {
    "Sports": "Sport", "Platform": "Platform", "Racing": "Racing", "Role-Playing": "Role-playing (RPG)",
    "Puzzle": "Puzzle", "Shooter": "Shooter", "Simulation": "Simulator", "Fighting": "Fighting",
    "Adventure": "Adventure", "Strategy": "Strategy", "Action": "Action", "Misc": None,
}

STEAM_MODES = {
    "Single-player": "Single player", "Multi-player": "Multiplayer", "Online Multi-Player": "Multiplayer",
    "Local Multi-Player": "Multiplayer", "Co-op": "Co-operative", "Online Co-op": "Co-operative",
    "Local Co-op": "Co-operative", "Shared/Split Screen": "Split screen", "MMO": "Massively Multiplayer Online (MMO)",
}


def key(name):
    """Name key for matching across files: accents folded, case and punctuation ignored."""
    n = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode().lower()
    n = n.replace("&", " and ")
    return re.sub(r"[^a-z0-9]+", "", n)


def slugify(name):
    n = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", n).strip("-") or "game"


def year_ts(year):
    return int(datetime.datetime(year, 1, 1, tzinfo=datetime.timezone.utc).timestamp())


def year_of(ts):
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).year if ts else None


def load_json_gz(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def add_unique(lst, value):
    if value and value not in lst:
        lst.append(value)


def main():
    games = {}  # igdb id -> game object
    locals_ = {}  # name key -> local game object (no igdb id)

    # 1. The top-500 raw set, expanded from its linked tables.
    raw = DATA + "/igdb_top500_raw/"
    tables = {
        t: {r["id"]: r for r in load_json_gz(raw + t + ".json.gz")}
        for t in ["covers", "involved_companies", "companies", "genres", "platforms", "game_modes", "game_types"]
    }
    for g in load_json_gz(raw + "games.json.gz"):
        out = {k: g[k] for k in ["id", "name", "slug", "summary", "first_release_date", "total_rating",
                                 "total_rating_count", "aggregated_rating", "aggregated_rating_count",
                                 "updated_at"] if g.get(k) is not None}
        cover = tables["covers"].get(g.get("cover"))
        if cover:
            out["cover"] = {"image_id": cover["image_id"]}
        out["genres"] = [{"name": tables["genres"][i]["name"]} for i in g.get("genres", []) if i in tables["genres"]]
        out["platforms"] = [{"name": p["name"], "abbreviation": p.get("abbreviation")}
                            for p in (tables["platforms"].get(i) for i in g.get("platforms", [])) if p]
        out["game_modes"] = [{"name": tables["game_modes"][i]["name"]}
                             for i in g.get("game_modes", []) if i in tables["game_modes"]]
        inv = []
        for i in g.get("involved_companies", []):
            ic = tables["involved_companies"].get(i)
            company = ic and tables["companies"].get(ic["company"])
            if company:
                inv.append({"company": {"name": company["name"]}, "developer": ic["developer"],
                            "publisher": ic["publisher"]})
        out["involved_companies"] = inv
        gt = tables["game_types"].get(g.get("game_type"))
        if gt:
            out["game_type"] = {"id": gt["id"], "type": gt["type"]}
        out["url"] = "https://www.igdb.com/games/" + g["slug"]
        games[g["id"]] = out

    # 2. The big dump: index everything by name, keep the rated games.
    summaries = {}
    with gzip.open(DATA + "/igdb_unifidb_summaries_rated.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            s = json.loads(line)
            summaries[s["igdb_id"]] = s.get("summary")
    by_name = {}
    unifi = {}
    with gzip.open(DATA + "/igdb_unifidb_games.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            u = json.loads(line)
            unifi[u["igdb_id"]] = u
            by_name.setdefault(key(u["name"]), []).append(u["igdb_id"])

    def from_unifi(u):
        out = {"id": u["igdb_id"], "name": u["name"]}
        if u.get("release_date"):
            out["first_release_date"] = u["release_date"]
        if summaries.get(u["igdb_id"]):
            out["summary"] = summaries[u["igdb_id"]]
        if u.get("aggregated_rating") is not None:
            out["aggregated_rating"] = u["aggregated_rating"]
        m = re.search(r"/([A-Za-z0-9_]+)\.(?:jpg|png)$", u.get("cover_url") or "")
        if m:
            out["cover"] = {"image_id": m.group(1)}
        out["genres"] = [{"name": n} for n in u.get("genres") or []]
        out["platforms"] = [{"name": n} for n in u.get("platforms") or []]
        inv = [{"company": {"name": n}, "developer": True, "publisher": False} for n in u.get("developers") or []]
        for n in u.get("publishers") or []:
            hit = next((c for c in inv if c["company"]["name"] == n), None)
            if hit:
                hit["publisher"] = True
            else:
                inv.append({"company": {"name": n}, "developer": False, "publisher": True})
        out["involved_companies"] = inv
        return out

    for u in unifi.values():
        if u.get("aggregated_rating") is not None and u["igdb_id"] not in games:
            games[u["igdb_id"]] = from_unifi(u)

    top500_by_name = {}
    for i, g in games.items():
        top500_by_name.setdefault(key(g["name"]), []).append(i)

    def find_igdb(name, year):
        ids = by_name.get(key(name), []) or top500_by_name.get(key(name), [])
        if not ids:
            return None

        def distance(i):
            g = games.get(i) or {"first_release_date": unifi[i].get("release_date")}
            y = year_of(g.get("first_release_date"))
            rated = (games.get(i) or {}).get("aggregated_rating") is not None
            return (abs((y or 3000) - (year or y or 3000)), not rated, i)

        return min(ids, key=distance)

    def local_for(name):
        k = key(name)
        if k not in locals_:
            locals_[k] = {"slug": slugify(name), "name": name, "genres": [], "platforms": [],
                          "involved_companies": [], "game_modes": []}
        return locals_[k]

    def add_company(g, name, developer):
        if not name:
            return
        for n in re.split(r";", name):
            n = n.strip()
            if not n:
                continue
            hit = next((c for c in g["involved_companies"] if c["company"]["name"] == n), None)
            if hit:
                hit["developer" if developer else "publisher"] = True
            else:
                g["involved_companies"].append({"company": {"name": n}, "developer": developer,
                                                "publisher": not developer})

    def set_esrb(g, letter):
        code = ESRB.get(letter)
        if not code:
            return
        ratings = g.setdefault("age_ratings", [])
        old = next((r for r in ratings if r["category"] == 1), None)
        if old is None:
            ratings.append({"category": 1, "rating": code})
        elif code > old["rating"]:
            old["rating"] = code

    # 3. The sales file: one row per platform.
    with open(DATA + "/Video_Games_Sales_as_at_22_Dec_2016.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            name = (row["Name"] or "").strip()
            if not name:
                continue
            year = int(row["Year_of_Release"]) if row["Year_of_Release"].isdigit() else None
            gid = find_igdb(name, year)
            if gid is not None:
                g = games.get(gid) or from_unifi(unifi[gid])
                games[gid] = g
            else:
                g = local_for(name)
                if year and (not g.get("first_release_date") or year_ts(year) < g["first_release_date"]):
                    g["first_release_date"] = year_ts(year)
                    g["release_dates"] = [{"date": year_ts(year), "y": year, "date_format": 2}]
                plat = SALES_PLATFORMS.get(row["Platform"])
                if plat and not any(p["name"] == plat[0] for p in g["platforms"]):
                    g["platforms"].append({"name": plat[0], "abbreviation": plat[1]})
                genre = SALES_GENRES.get(row["Genre"], row["Genre"])
                if genre and not any(x["name"] == genre for x in g["genres"]):
                    g["genres"].append({"name": genre})
                add_company(g, row["Developer"], True)
                add_company(g, row["Publisher"], False)
                if row["Critic_Score"]:
                    count = int(row["Critic_Count"] or 0)
                    if count > g.get("aggregated_rating_count", 0):
                        g["aggregated_rating"] = float(row["Critic_Score"])
                        g["aggregated_rating_count"] = count
            set_esrb(g, row["Rating"])
            if row["Critic_Count"]:
                g["aggregated_rating_count"] = max(g.get("aggregated_rating_count", 0), int(row["Critic_Count"]))

    # 4. IGN reviews and Steam: "Th" titles the big dump lacks.
    with gzip.open(DATA + "/ign_reviews.csv.gz", "rt", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            name = (row["title"] or "").strip()
            if not name.lower().startswith("th") or find_igdb(name, None) is not None:
                continue
            g = local_for(name)
            year = int(row["release_year"]) if row["release_year"].isdigit() else None
            month = int(row["release_month"]) if row["release_month"].isdigit() else None
            day = int(row["release_day"]) if row["release_day"].isdigit() else None
            if year and month and day and 1970 <= year:
                ts = int(datetime.datetime(year, month, day, tzinfo=datetime.timezone.utc).timestamp())
                if not g.get("first_release_date") or ts < g["first_release_date"] or g.get("release_dates"):
                    g["first_release_date"] = ts
                    g.pop("release_dates", None)
            add_unique_platform = row["platform"]
            if add_unique_platform and not any(p["name"] == add_unique_platform for p in g["platforms"]):
                g["platforms"].append({"name": add_unique_platform})
            for genre in (row["genre"] or "").split(","):
                genre = genre.strip()
                if genre and not any(x["name"] == genre for x in g["genres"]):
                    g["genres"].append({"name": genre})

    steam_modes = {}
    with gzip.open(DATA + "/steam_games_trimmed.csv.gz", "rt", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            name = (row["title"] or "").strip()
            modes = []
            for c in (row["categories"] or "").split(";"):
                add_unique(modes, STEAM_MODES.get(c.strip()))
            steam_modes.setdefault(key(name), modes)
            if not name.lower().startswith("th") or find_igdb(name, None) is not None:
                continue
            g = local_for(name)
            if not any(p["name"] == "PC (Microsoft Windows)" for p in g["platforms"]):
                g["platforms"].append({"name": "PC (Microsoft Windows)", "abbreviation": "PC"})
            for genre in (row["genres"] or "").split(";"):
                genre = genre.strip()
                if genre and not any(x["name"] == genre for x in g["genres"]):
                    g["genres"].append({"name": genre})
            add_company(g, row["developer"], True)
            add_company(g, row["publisher"], False)

    for g in list(games.values()) + list(locals_.values()):
        if not g.get("game_modes"):
            modes = steam_modes.get(key(g["name"]))
            if modes:
                g["game_modes"] = [{"name": m} for m in modes]
        for field in ["genres", "platforms", "involved_companies", "game_modes"]:
            if field in g and not g[field]:
                del g[field]

    # Local slugs must be unique.
    seen = set()
    for g in locals_.values():
        base, n = g["slug"], 2
        while g["slug"] in seen:
            g["slug"] = f"{base}-{n}"
            n += 1
        seen.add(g["slug"])

    rows = [games[i] for i in sorted(games)] + sorted(locals_.values(), key=lambda g: g["slug"])
    with gzip.GzipFile(OUT, "wb", mtime=0) as raw_out:
        with io.TextIOWrapper(raw_out, encoding="utf-8") as out:
            for g in rows:
                out.write(json.dumps(g, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"{len(rows)} games ({len(games)} with IGDB ids, {len(locals_)} local) -> {OUT}")


if __name__ == "__main__":
    main()
