"""Rules the bundled-catalog build applies to every source: name keys, canonical genre and platform names,
age-rating codes, and how add-ons, bundles, editions and ports are told apart from main games by their names.
Used by build_catalog.py."""

import datetime
import re
import unicodedata

# IGDB's legacy age-rating codes: category 1 = ESRB; ratings 6 RP, 7 EC, 8 E, 9 E10+, 10 T, 11 M, 12 AO.
ESRB = {"RP": 6, "EC": 7, "K-A": 8, "E": 8, "E10+": 9, "ET": 9, "T": 10, "M": 11, "AO": 12}
MATURE_CODES = {11, 12}

# IGDB's kinds of release that are not a game of their own (the server ranks them after main games).
SECONDARY_TYPES = {"DLC", "Expansion", "Bundle", "Expanded Game", "Port", "Pack", "Update", "Mod", "Episode",
                   "Season"}

# IGDB's own genre names: every genre in the bundled catalog is one of these.
IGDB_GENRES = {
    "Adventure", "Arcade", "Card & Board Game", "Fighting", "Hack and slash/Beat 'em up", "Indie", "MOBA", "Music",
    "Pinball", "Platform", "Point-and-click", "Puzzle", "Quiz/Trivia", "Racing", "Real Time Strategy (RTS)",
    "Role-playing (RPG)", "Shooter", "Simulator", "Sport", "Strategy", "Tactical", "Turn-based strategy (TBS)",
    "Visual Novel",
}
# Other sources' genre words mapped to IGDB's; store tags and words with no IGDB genre (Action, Casual, Gore,
# Early Access, Free to Play…) are dropped.
GENRE_ALIASES = {
    "rpg": "Role-playing (RPG)", "role-playing": "Role-playing (RPG)", "action rpg": "Role-playing (RPG)",
    "simulation": "Simulator", "flight": "Simulator", "virtual pet": "Simulator", "sports": "Sport",
    "wrestling": "Sport", "hunting": "Sport", "platformer": "Platform", "trivia": "Quiz/Trivia",
    "board": "Card & Board Game", "card": "Card & Board Game", "shooter": "Shooter", "fighting": "Fighting",
    "puzzle": "Puzzle", "racing": "Racing", "strategy": "Strategy", "adventure": "Adventure", "music": "Music",
    "pinball": "Pinball", "indie": "Indie", "beat-'em-up": "Hack and slash/Beat 'em up",
}
GENRE_DROPPED_AS_MODE = {"Massively Multiplayer": "Massively Multiplayer Online (MMO)"}

# Other sources' platform names mapped to IGDB's.
PLATFORM_ALIASES = {
    "PC": "PC (Microsoft Windows)", "Macintosh": "Mac", "GameCube": "Nintendo GameCube", "iPhone": "iOS",
    "iPad": "iOS", "iPod": "iOS", "Wireless": "Legacy Mobile Device", "Commodore 64/128": "Commodore C64/128/MAX",
    "NeoGeo Pocket Color": "Neo Geo Pocket Color", "Super NES": "Super Nintendo Entertainment System",
    "Genesis": "Sega Mega Drive/Genesis", "TurboGrafx-16": "TurboGrafx-16/PC Engine", "Nintendo 64DD": "64DD",
    "NES": "Nintendo Entertainment System", "SNES": "Super Nintendo Entertainment System", "Saturn": "Sega Saturn",
    "Master System": "Sega Master System/Mark III", "Game Gear": "Sega Game Gear", "Lynx": "Atari Lynx",
    "Jaguar": "Atari Jaguar", "Web Games": "Web browser", "Windows Surface": "PC (Microsoft Windows)",
    "SteamOS": "Linux", "Xbox One X": "Xbox One",
}
# Platforms of the Metacritic scrape (abbreviations) mapped to IGDB's.
METACRITIC_PLATFORMS = {
    "PC": "PC (Microsoft Windows)", "PS4": "PlayStation 4", "PS3": "PlayStation 3", "PS2": "PlayStation 2",
    "PS": "PlayStation", "XONE": "Xbox One", "X360": "Xbox 360", "XBOX": "Xbox", "Switch": "Nintendo Switch",
    "WIIU": "Wii U", "WII": "Wii", "GC": "Nintendo GameCube", "N64": "Nintendo 64", "3DS": "Nintendo 3DS",
    "DS": "Nintendo DS", "GBA": "Game Boy Advance", "PSP": "PlayStation Portable", "VITA": "PlayStation Vita",
    "DC": "Dreamcast",
}

# Names that say what a release is (checked on the folded name, words joined by single spaces).
BUNDLE_WORDS = re.compile(
    r"\b(double pack|triple pack|bundle|compilation|\d+ (?:games )?in 1|two games in one|season pass|"
    r"collector s pack|value pack|combo pack|collection|trilogy|anthology)\b")
EDITION_WORDS = re.compile(
    r"\b(game of the year|goty|definitive|complete|deluxe|ultimate|gold|premium|enhanced|legendary|"
    r"collector s|director s cut|anniversary|digital deluxe|royal|platinum) edition\b|\bedition$")
ADDON_WORDS = re.compile(r"\b(dlc|expansion pack|add on|episode \d+|episode [ivx]+|season pass|soundtrack)\b")
# A name that continues another game's name after one of these is, when that game is older, an add-on of it.
ADDON_SEPARATORS = [" -- ", " - ", " – ", " — ", ": "]


def folded(name):
    """Accents folded, lower case, `&` as "and", punctuation as single spaces."""
    n = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode().lower()
    n = n.replace("&", " and ").replace("'", "").replace("’", "")
    return re.sub(r"[^a-z0-9]+", " ", n).strip()


ROMANS = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv", "xvi"]


def key(name):
    """Name key for matching across files: folded, a leading "The" and roman numerals (II and up) as digits."""
    words = folded(name).split()
    if words[:1] == ["the"]:
        words = words[1:]
    words = [str(ROMANS.index(w) + 1) if w in ROMANS[1:] else w for w in words]
    return " ".join(words)


def slugify(name):
    n = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", n).strip("-") or "game"


def year_ts(year):
    return int(datetime.datetime(year, 1, 1, tzinfo=datetime.timezone.utc).timestamp())


def year_of(ts):
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).year if ts else None


def canonical_genre(name):
    """IGDB's name for a genre, or None for store tags and words IGDB has no genre for."""
    name = (name or "").strip()
    if name in IGDB_GENRES:
        return name
    return GENRE_ALIASES.get(name.lower())


def canonical_platform(name):
    name = (name or "").strip()
    return PLATFORM_ALIASES.get(name, name) or None


def type_from_name(name):
    """"Bundle" or "Expanded Game" when the name alone says so; None otherwise."""
    f = folded(name)
    if BUNDLE_WORDS.search(f):
        return "Bundle"
    if EDITION_WORDS.search(f):
        return "Expanded Game"
    if ADDON_WORDS.search(f):
        return "DLC"
    return None


def parent_prefixes(name):
    """The keys of the names this one could be an add-on of: the part before each separator."""
    out = []
    for sep in ADDON_SEPARATORS:
        start = 0
        while True:
            i = name.find(sep, start)
            if i <= 0:
                break
            out.append((key(name[:i]), sep))
            start = i + 1
    return out
