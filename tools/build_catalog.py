#!/usr/bin/env python3
"""Builds the bundled offline catalog from the public data in ../shared/data.

Output: JSON Lines, gzip-compressed, one object per game in IGDB's own /v4/games shape
with expanded fields (the same shape `ggtracker catalog import` reads).

Selection:
  * the 500 games of igdb_top500_raw, fully expanded (covers, companies, modes, types);
  * every game of the big IGDB dump that has a critic rating (with its summary);
  * the 15,000 IGDB main games of 2010–2024 (extra/igdb_main_games…), which also bring back "Th…" titles the
    big dump lacks with their real IGDB ids;
  * every game of the sales file, matched to its IGDB record by name and year; a title with no IGDB record
    becomes a local entry (no IGDB id, keyed by slug);
  * other "Th…" titles filled from the IGN and Steam files, so that well-known games are never missing.

What each game carries, and from where:
  * a critic score only together with the number of critics of the same source: IGDB's own aggregated rating
    and count (top-500 set) or Metacritic's metascore and review count (extra/metacritic…, else the 2016
    sales file) averaged over platforms by their critic counts, whichever has more critics; IGDB scores that
    come without a count are not kept;
  * ESRB ratings from the sales file, the Metacritic scrape (name and year) and the ESRB listings of
    2018–2021 (name, recent games only); add-ons, editions, bundles, ports and remakes (typed by IGDB or by
    name) take their game's rating when they have none of their own, and a later namesake of a rated main
    game its rating (a mature one only, when the namesake is a main game itself);
  * game_type: IGDB's own where known, "Main Game" for the main-game list, otherwise from the name (bundles,
    editions, add-ons named after an older game) and from namesakes (a later copy of a main game's name
    within five years is a port);
  * genres and platforms under IGDB's canonical names (store tags such as "Gore" or "Early Access" dropped);
    game modes from Steam's categories where a title matches. No source has engines by game.

Usage: python3 tools/build_catalog.py [DATA_DIR] [OUT_FILE] [--report]
"""

import csv
import datetime
import gzip
import io
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from catalog_rules import (  # noqa: E402
    ESRB, MATURE_CODES, SECONDARY_TYPES, canonical_genre, canonical_platform, key, parent_prefixes, slugify,
    type_from_name, year_of, year_ts, METACRITIC_PLATFORMS, GENRE_DROPPED_AS_MODE)
import catalog_report  # noqa: E402

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
DATA = ARGS[0] if len(ARGS) > 0 else "../shared/data"
OUT = ARGS[1] if len(ARGS) > 1 else "Sources/GGTrackerCatalog/Resources/catalog.jsonl.gz"

SALES_PLATFORMS = {
    "2600": "Atari 2600", "3DO": "3DO Interactive Multiplayer", "3DS": "Nintendo 3DS", "DC": "Dreamcast",
    "DS": "Nintendo DS", "GB": "Game Boy", "GBA": "Game Boy Advance", "GC": "Nintendo GameCube",
    "GEN": "Sega Mega Drive/Genesis", "GG": "Sega Game Gear", "N64": "Nintendo 64",
    "NES": "Nintendo Entertainment System", "NG": "Neo Geo AES", "PC": "PC (Microsoft Windows)", "PCFX": "PC-FX",
    "PS": "PlayStation", "PS2": "PlayStation 2", "PS3": "PlayStation 3", "PS4": "PlayStation 4",
    "PSP": "PlayStation Portable", "PSV": "PlayStation Vita", "SAT": "Sega Saturn", "SCD": "Sega CD",
    "SNES": "Super Nintendo Entertainment System", "TG16": "TurboGrafx-16/PC Engine", "WS": "WonderSwan",
    "Wii": "Wii", "WiiU": "Wii U", "X360": "Xbox 360", "XB": "Xbox", "XOne": "Xbox One",
}
SALES_GENRES = {"Role-Playing": "Role-playing (RPG)", "Simulation": "Simulator", "Sports": "Sport"}
STEAM_MODES = {
    "Single-player": "Single player", "Multi-player": "Multiplayer", "Online Multi-Player": "Multiplayer",
    "Local Multi-Player": "Multiplayer", "Co-op": "Co-operative", "Online Co-op": "Co-operative",
    "Local Co-op": "Co-operative", "Shared/Split Screen": "Split screen", "MMO": "Massively Multiplayer Online (MMO)",
}


def load_json_gz(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def read_csv(path, encoding="utf-8", **kw):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding=encoding, newline="") as f:
        yield from csv.DictReader(f, **kw)


def add_named(lst, value):
    if value and not any(x["name"] == value for x in lst):
        lst.append({"name": value})


class Catalog:
    def __init__(self):
        self.games = {}  # igdb id -> game
        self.locals = {}  # name key -> local game
        self.main_ids = set()  # IGDB-labelled main games
        self.critics = {}  # id(game) -> {source: [(score, count)]}
        self.dropped_igdb_scores = set()  # ids whose IGDB score came without a count
        self.by_key = {}  # name key -> [game] of everything selected

    def all(self):
        return list(self.games.values()) + list(self.locals.values())

    def index(self):
        self.by_key = {}
        for g in self.all():
            self.by_key.setdefault(key(g["name"]), []).append(g)

    def critic(self, g, source, score, count):
        if score is not None and count:
            self.critics.setdefault(id(g), {}).setdefault(source, []).append((float(score), int(count)))

    def local_for(self, name):
        k = key(name)
        if k not in self.locals:
            self.locals[k] = {"slug": slugify(name), "name": name, "genres": [], "platforms": [],
                              "involved_companies": [], "game_modes": []}
        return self.locals[k]


def add_company(g, names, developer):
    for n in (names or "").split(";"):
        n = n.strip()
        if not n or n == "Not Listed":
            continue
        hit = next((c for c in g.setdefault("involved_companies", []) if c["company"]["name"] == n), None)
        if hit:
            hit["developer" if developer else "publisher"] = True
        else:
            g["involved_companies"].append({"company": {"name": n}, "developer": developer,
                                            "publisher": not developer})


def set_esrb(g, letter):
    code = ESRB.get((letter or "").strip())
    if not code:
        return
    ratings = g.setdefault("age_ratings", [])
    old = next((r for r in ratings if r["category"] == 1), None)
    if old is None:
        ratings.append({"category": 1, "rating": code})
    elif code > old["rating"]:
        old["rating"] = code


def load_igdb(cat):
    raw = DATA + "/igdb_top500_raw/"
    tables = {
        t: {r["id"]: r for r in load_json_gz(raw + t + ".json.gz")}
        for t in ["covers", "involved_companies", "companies", "genres", "platforms", "game_modes", "game_types"]
    }
    for g in load_json_gz(raw + "games.json.gz"):
        out = {k: g[k] for k in ["id", "name", "slug", "summary", "first_release_date", "total_rating",
                                 "total_rating_count", "aggregated_rating", "aggregated_rating_count",
                                 "updated_at"] if g.get(k) is not None}
        if out.get("aggregated_rating") is not None and not out.get("aggregated_rating_count"):
            out.pop("aggregated_rating")
            cat.dropped_igdb_scores.add(g["id"])
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
            if gt["type"] == "Main Game":
                cat.main_ids.add(g["id"])
        out["url"] = "https://www.igdb.com/games/" + g["slug"]
        cat.games[g["id"]] = out


def from_unifi(u, summaries):
    out = {"id": u["igdb_id"], "name": u["name"]}
    if u.get("release_date"):
        out["first_release_date"] = u["release_date"]
    if summaries.get(u["igdb_id"]):
        out["summary"] = summaries[u["igdb_id"]]
    m = re.search(r"/([A-Za-z0-9_]+)\.(?:jpg|png)$", u.get("cover_url") or "")
    if m:
        out["cover"] = {"image_id": m.group(1)}
    out["genres"] = [{"name": n} for n in u.get("genres") or []]
    out["platforms"] = [{"name": n} for n in u.get("platforms") or []]
    out["involved_companies"] = []
    add_company(out, ";".join(u.get("developers") or []), True)
    add_company(out, ";".join(u.get("publishers") or []), False)
    return out


def load_dump(cat):
    """The big dump (every game indexed by name, rated ones kept) and the main-game list of 2010–2024."""
    summaries = {}
    for line in gzip.open(DATA + "/igdb_unifidb_summaries_rated.jsonl.gz", "rt", encoding="utf-8"):
        s = json.loads(line)
        summaries[s["igdb_id"]] = s.get("summary")
    unifi, by_name = {}, {}
    for line in gzip.open(DATA + "/igdb_unifidb_games.jsonl.gz", "rt", encoding="utf-8"):
        u = json.loads(line)
        unifi[u["igdb_id"]] = u
        by_name.setdefault(key(u["name"]), []).append(u["igdb_id"])
    for gid, g in cat.games.items():
        if gid not in unifi:
            unifi[gid] = {"igdb_id": gid, "name": g["name"], "release_date": g.get("first_release_date")}
            by_name.setdefault(key(g["name"]), []).append(gid)
    for u in unifi.values():
        if u.get("aggregated_rating") is not None and u["igdb_id"] not in cat.games:
            cat.games[u["igdb_id"]] = from_unifi(u, summaries)
            cat.dropped_igdb_scores.add(u["igdb_id"])
    for row in read_csv(DATA + "/extra/igdb_main_games_2010_2024_yipyip.csv.gz"):
        gid = int(row["game_id"])
        cat.main_ids.add(gid)
        if gid in cat.games:
            continue
        if gid in unifi:
            g = from_unifi(unifi[gid], summaries)
        else:
            g = {"id": gid, "name": row["name"], "slug": row["slug"], "involved_companies": []}
            if row["first_release_date_iso"]:
                day = datetime.date.fromisoformat(row["first_release_date_iso"][:10])
                g["first_release_date"] = year_ts(day.year) + (day - datetime.date(day.year, 1, 1)).days * 86400
            g["genres"] = [{"name": n.strip()} for n in row["genres"].split(",") if n.strip() not in ("", "Not Listed")]
            g["platforms"] = [{"name": n.strip()} for n in re.split(r", (?![^(]*\))", row["platforms"])
                              if n.strip() not in ("", "Not Listed")]
            add_company(g, row["developers"].replace(", ", ";"), True)
            add_company(g, row["publishers"].replace(", ", ";"), False)
            g["url"] = "https://www.igdb.com/games/" + row["slug"]
        cat.games[gid] = g
        by_name.setdefault(key(g["name"]), []).append(gid)
        unifi.setdefault(gid, {"igdb_id": gid, "name": g["name"], "release_date": g.get("first_release_date")})
    return unifi, by_name, summaries


def load_sales(cat, unifi, by_name, summaries):
    def find_igdb(name, year):
        ids = by_name.get(key(name), [])
        if not ids:
            return None

        def distance(i):
            y = year_of((cat.games.get(i) or {}).get("first_release_date") or unifi[i].get("release_date"))
            return (abs((y or 3000) - (year or y or 3000)), i not in cat.main_ids, i not in cat.games, i)

        return min(ids, key=distance)

    for row in read_csv(DATA + "/Video_Games_Sales_as_at_22_Dec_2016.csv"):
        name = (row["Name"] or "").strip()
        if not name:
            continue
        year = int(row["Year_of_Release"]) if row["Year_of_Release"].isdigit() else None
        gid = find_igdb(name, year)
        if gid is not None:
            g = cat.games.get(gid) or from_unifi(unifi[gid], summaries)
            cat.games[gid] = g
        else:
            g = cat.local_for(name)
            if year and (not g.get("first_release_date") or year_ts(year) < g["first_release_date"]):
                g["first_release_date"] = year_ts(year)
                g["release_dates"] = [{"date": year_ts(year), "y": year, "date_format": 2}]
            add_named(g["platforms"], SALES_PLATFORMS.get(row["Platform"]))
            add_named(g["genres"], canonical_genre(SALES_GENRES.get(row["Genre"], row["Genre"])))
            add_company(g, row["Developer"], True)
            add_company(g, row["Publisher"], False)
        set_esrb(g, row["Rating"])
        if row["Critic_Score"] and row["Critic_Count"]:
            cat.critic(g, "sales", row["Critic_Score"], row["Critic_Count"])
    return find_igdb


def load_th_titles(cat, find_igdb):
    """IGN reviews and Steam: "Th" titles the big dump lacks; Steam's categories as game modes."""
    for row in read_csv(DATA + "/ign_reviews.csv.gz"):
        name = (row["title"] or "").strip()
        if not name.lower().startswith("th") or find_igdb(name, None) is not None:
            continue
        g = cat.local_for(name)
        year, month, day = (int(row[k]) if row[k].isdigit() else None
                            for k in ("release_year", "release_month", "release_day"))
        if year and month and day and 1970 <= year:
            ts = int(datetime.datetime(year, month, day, tzinfo=datetime.timezone.utc).timestamp())
            if not g.get("first_release_date") or ts < g["first_release_date"] or g.get("release_dates"):
                g["first_release_date"] = ts
                g.pop("release_dates", None)
        add_named(g["platforms"], canonical_platform(row["platform"]))
        for genre in (row["genre"] or "").split(","):
            add_named(g["genres"], canonical_genre(genre))
    steam_modes = {}
    for row in read_csv(DATA + "/steam_games_trimmed.csv.gz"):
        name = (row["title"] or "").strip()
        modes = []
        for c in (row["categories"] or "").split(";"):
            m = STEAM_MODES.get(c.strip())
            if m and m not in modes:
                modes.append(m)
        for genre in (row["genres"] or "").split(";"):
            m = GENRE_DROPPED_AS_MODE.get(genre.strip())
            if m and m not in modes:
                modes.append(m)
        steam_modes.setdefault(key(name), modes)
        if not name.lower().startswith("th") or find_igdb(name, None) is not None:
            continue
        g = cat.local_for(name)
        add_named(g["platforms"], "PC (Microsoft Windows)")
        for genre in (row["genres"] or "").split(";"):
            add_named(g["genres"], canonical_genre(genre))
        add_company(g, row["developer"], True)
        add_company(g, row["publisher"], False)
    return steam_modes


def match(cat, name, year, slack=1):
    """The selected game with this name released within `slack` years of `year`, main games first."""
    def gap(g):
        return abs((year or 0) - (year_of(g.get("first_release_date")) or -99))
    hits = [g for g in cat.by_key.get(key(name), []) if year is None or gap(g) <= slack]
    return min(hits, key=lambda g: (gap(g), g.get("id") not in cat.main_ids)) if hits else None


def load_metacritic(cat):
    """Metacritic 1995–2018: ESRB and critic review counts by name and year; ESRB listings of 2018–2021."""
    matched = 0
    for row in read_csv(DATA + "/extra/metacritic_1995_2018_esrb_critic_counts.csv.gz"):
        try:
            year = datetime.datetime.strptime(row["release_date"].strip(), "%b %d, %Y").year
        except ValueError:
            year = None
        g = match(cat, row["name"], year)
        if g is None:
            continue
        matched += 1
        set_esrb(g, row["rating"])
        count = sum(int(row[k] or 0) for k in ("critic_positive", "critic_neutral", "critic_negative"))
        if row["metascore"].strip().isdigit():
            cat.critic(g, "metacritic", int(row["metascore"]), count)
        plat = METACRITIC_PLATFORMS.get(row["platform"])
        if plat and "id" not in g:
            add_named(g["platforms"], plat)
    for name in ("esrb_descriptors_train.csv.gz", "esrb_descriptors_test.csv.gz"):
        for row in read_csv(DATA + "/extra/" + name):
            title = re.sub(r"[™®©]", "", row["title"]).strip()
            recent = [g for g in cat.by_key.get(key(title), []) if (year_of(g.get("first_release_date")) or 0) >= 2015]
            if recent:
                set_esrb(max(recent, key=lambda g: (g.get("id") in cat.main_ids, g.get("first_release_date") or 0)),
                         row["esrb_rating"])
    return matched


def settle_scores(cat):
    """One critic score per game with its own count: IGDB's or Metacritic's (the scrape, else the sales file),
    whichever has more critics."""
    for g in cat.all():
        found = cat.critics.get(id(g), {})
        rows = found.get("metacritic") or found.get("sales")
        if rows and sum(c for _, c in rows) <= (g.get("aggregated_rating_count") or 0):
            continue  # IGDB's own score comes from more critics
        if rows:
            count = sum(c for _, c in rows)
            g["aggregated_rating"] = round(sum(s * c for s, c in rows) / count, 2)
            g["aggregated_rating_count"] = count


# Releases IGDB types as add-ons, editions, bundles, ports or remakes: without an age rating of their own, they
# take their game's.
RATED_LIKE_PARENT = SECONDARY_TYPES | {"Expansion", "Standalone Expansion", "Remake", "Remaster"}


def typed_parent(cat, g):
    """The game an add-on, edition or port (typed by IGDB or by its name) belongs to: an earlier game of the same
    name, of the part before a separator ("The Witcher 3: Wild Hunt - Game of the Year Edition") or of its first
    words; a main game first."""
    year = year_of(g.get("first_release_date")) or 9999
    words = key(g["name"]).split()
    # Its name, the part before a separator, then its first words (two at least: "Mortal Kombat Trilogy").
    keys = [(key(g["name"]), None)] + parent_prefixes(g["name"])
    keys += [(" ".join(words[:n]), " ") for n in range(len(words) - 1, 1, -1)]
    for pkey, sep in keys:
        candidates = [p for p in cat.by_key.get(pkey, []) if p is not g
                      and (p.get("game_type") or {}).get("type") not in RATED_LIKE_PARENT
                      and (year_of(p.get("first_release_date")) or 0) <= year]
        if not candidates:
            continue
        parent = min(candidates, key=lambda p: (p.get("id") not in cat.main_ids, p.get("first_release_date") or 0))
        notable = parent.get("id") in cat.main_ids or parent.get("aggregated_rating_count")
        if sep == ": " and len(pkey.split()) < 2 and not notable:
            continue
        return parent
    return None


def settle_types(cat):
    """Main games, and what else each release is as far as names and namesakes tell; parents for age ratings."""
    parents = {}

    def rate_like_its_game(g):
        """A typed release without an age rating or a parent yet: its game, found by name, is its parent."""
        if id(g) not in parents and not g.get("age_ratings"):
            parent = typed_parent(cat, g)
            if parent:
                parents[id(g)] = parent

    for g in cat.all():
        if g.get("game_type"):
            if g["game_type"].get("type") in RATED_LIKE_PARENT:
                rate_like_its_game(g)
            continue
        if g.get("id") in cat.main_ids:
            g["game_type"] = {"type": "Main Game"}
            continue
        kind = type_from_name(g["name"])
        year = year_of(g.get("first_release_date")) or 9999
        for pkey, sep in parent_prefixes(g["name"]):
            candidates = [p for p in cat.by_key.get(pkey, []) if p is not g
                          and (year_of(p.get("first_release_date")) or 0) <= year]
            if not candidates:
                continue
            parent = min(candidates, key=lambda p: (p.get("id") not in cat.main_ids, p.get("first_release_date") or 0))
            notable = parent.get("id") in cat.main_ids or parent.get("aggregated_rating_count")
            standalone = (g.get("aggregated_rating_count") or 0) >= 30
            if sep == ": " and (len(pkey.split()) < 2 or standalone or not notable) and not kind:
                continue
            parents[id(g)] = parent
            kind = kind or "DLC"
            break
        if kind:
            g["game_type"] = {"type": kind}
            # "The Witcher 2: Assassins of Kings (Enhanced Edition)": its game is named by its first words.
            rate_like_its_game(g)
    for group in cat.by_key.values():
        mains = [p for p in group if (p.get("game_type") or {}).get("type") == "Main Game"]
        for g in group:
            if not mains:
                continue
            year = year_of(g.get("first_release_date"))
            earlier = [p for p in mains if year and 0 <= year - (year_of(p.get("first_release_date")) or 0) <= 5]
            if earlier and not g.get("game_type"):
                g["game_type"] = {"type": "Port"}
                parents[id(g)] = max(earlier, key=lambda p: p.get("first_release_date") or 0)
            elif not g.get("age_ratings") and id(g) not in parents:
                # A later namesake of a rated main game, too late to be called its port (Resident Evil 4 of 2011),
                # is still rated like it; one that is a main game of its own (Dead Space of 2011 on phones) only
                # when that rating is mature: the age gate errs on the side of hiding.
                own = bool(g.get("game_type"))
                rated = [p for p in mains if p is not g and p.get("age_ratings") and year
                         and year >= (year_of(p.get("first_release_date")) or 9999)
                         and (not own or any(r.get("rating") in MATURE_CODES for r in p["age_ratings"]))]
                if rated:
                    parents[id(g)] = max(rated, key=lambda p: p.get("first_release_date") or 0)
    inherited = 0
    for g in cat.all():
        parent = parents.get(id(g))
        if parent and not g.get("age_ratings") and parent.get("age_ratings"):
            g["age_ratings"] = [dict(r) for r in parent["age_ratings"]]
            inherited += 1
    return inherited


def tidy(cat, steam_modes):
    for g in cat.all():
        g["genres"] = [{"name": n} for n in dict.fromkeys(canonical_genre(x["name"]) for x in g.get("genres", [])) if n]
        plats = []
        for p in g.get("platforms", []):
            name = canonical_platform(p["name"])
            if name and not any(q["name"] == name for q in plats):
                plats.append({**p, "name": name})
        g["platforms"] = plats
        if not g.get("game_modes"):
            modes = steam_modes.get(key(g["name"]))
            if modes:
                g["game_modes"] = [{"name": m} for m in modes]
        for field in ["genres", "platforms", "involved_companies", "game_modes"]:
            if field in g and not g[field]:
                del g[field]
    seen = set()
    for g in cat.locals.values():
        base, n = g["slug"], 2
        while g["slug"] in seen:
            g["slug"] = f"{base}-{n}"
            n += 1
        seen.add(g["slug"])


def steam_app_ids(cat, unifi):
    """Steam's app ids from the dump's external ids (known by their store address, or IGDB's Steam category)."""
    found = 0
    for gid, g in cat.games.items():
        ids = []
        for e in (unifi.get(gid) or {}).get("external_ids") or []:
            m = re.search(r"store\.steampowered\.com/app/(\d+)", e.get("url") or "")
            uid = m.group(1) if m else (str(e.get("uid")) if e.get("category") == 1 or e.get("store") == "steam" else "")
            if uid.isdigit() and int(uid) > 0 and int(uid) not in ids:
                ids.append(int(uid))
        if ids:
            g["external_games"] = [{"external_game_source": 1, "uid": str(i)} for i in ids]
            found += 1
    return found


def main():
    cat = Catalog()
    load_igdb(cat)
    unifi, by_name, summaries = load_dump(cat)
    find_igdb = load_sales(cat, unifi, by_name, summaries)
    steam_modes = load_th_titles(cat, find_igdb)
    cat.index()
    metacritic_rows = load_metacritic(cat)
    settle_scores(cat)
    inherited = settle_types(cat)
    tidy(cat, steam_modes)
    with_steam = steam_app_ids(cat, unifi)
    rows = [cat.games[i] for i in sorted(cat.games)] + sorted(cat.locals.values(), key=lambda g: g["slug"])
    with gzip.GzipFile(OUT, "wb", mtime=0) as raw_out:
        with io.TextIOWrapper(raw_out, encoding="utf-8") as out:
            for g in rows:
                out.write(json.dumps(g, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"{len(rows)} games ({len(cat.games)} with IGDB ids, {len(cat.locals)} local) -> {OUT}")
    if "--report" in sys.argv:
        print(catalog_report.report(rows, {
            "IGDB scores without a critic count, not kept": len(cat.dropped_igdb_scores),
            "  of those games, scored by Metacritic instead": sum(
                1 for i in cat.dropped_igdb_scores if cat.games[i].get("aggregated_rating") is not None),
            "Metacritic rows matched by name and year": metacritic_rows,
            "age ratings taken from the main game": inherited,
            "games with a Steam app id": with_steam,
        }, SECONDARY_TYPES))


if __name__ == "__main__":
    main()
