"""Dutch renderings of the messages `mjscore score` can show: the engine's refusals (spec §3),
notation errors and the command's own checks, as one table of data.

The English messages stay where they are written (``validate.py``, ``nts.py``, ``notation.py``,
``config.py``, ``request_file.py``, ``cli_score.py``) and unchanged, since they are part of the
JSON answers; this table pairs each English template with its Dutch one. ``<name>`` in a
template stands for the variable part (a tile, a group, a number) and is carried over as it
is. A notation error as its ``str()`` reads (``where: message (token 'x' at position n)``) is
translated through its message's template."""

from __future__ import annotations

import re

# English template -> Dutch template
NL: dict[str, str] = {
    # the engine's refusals (validate.py, nts.py)
    "<g>: flowers and seasons are never part of a group": "<g>: bloemen en seizoenen horen nooit in een set",
    "<g>: a face-down tile X only appears in a concealed kong {..}":
        "<g>: een omgekeerde steen X ligt alleen in een dichte kong {..}",
    "<g>: an exposed group [..] is a pung, chow or kong": "<g>: een open set [..] is een pung, chow of kong",
    "<g>: a concealed kong {..} holds four identical tiles (X for a face-down one)":
        "<g>: een dichte kong {..} heeft vier gelijke stenen (X voor een omgekeerde)",
    "<g>: a fixed concealed group (..) is a pung, chow or pair":
        "<g>: een vaste dichte set (..) is een pung, chow of paar",
    "a face-down tile X only appears inside a concealed kong {..}":
        "een omgekeerde steen X ligt alleen in een dichte kong {..}",
    "the winning tile cannot be face down": "de winnende steen kan niet omgekeerd liggen",
    "flowers and seasons (<t>) do not play in NTS; use nts-app":
        "bloemen en seizoenen (<t>) tellen niet mee in NTS; kies nts-app",
    "bonus tile <t> appears <n> times": "bloem of seizoen <t> komt <n> keer voor",
    "<t> appears <n> times (there are only 4)": "<t> komt <n> keer voor (er zijn er maar 4)",
    "the winning tile is missing: write it last as +tile":
        "de winnende steen ontbreekt: schrijf hem als laatste als +steen",
    "the winner has <have> tiles; with <k> kong(s) that should be <want> (bonus tiles not counted)":
        "de winnaar heeft <have> stenen; met <k> kong(s) horen er <want> te zijn (bloemen en seizoenen "
        "niet meegeteld)",
    "a heavenly hand is East's own 14 dealt tiles (East, self-drawn)":
        "een hemelse hand zijn de 14 gedeelde stenen van Oost zelf (Oost, zelf gepakt)",
    "an earthly hand is won by a non-East player on East's first discard":
        "een aardse hand wint een speler die niet Oost is, op de eerste weggelegde steen van Oost",
    "a kong replacement tile is self-drawn": "een losse steen na een kong is zelf gepakt",
    "winning on a kong replacement tile needs <n> declared kong(s) in the hand":
        "winnen op een losse steen na een kong vraagt <n> gemelde kong(s) in de hand",
    "heavenly and earthly hand exclude each other": "hemelse en aardse hand sluiten elkaar uit",
    "more groups than four sets and one pair": "meer groepen dan vier sets en één paar",
    "the tiles form neither four sets and a pair nor an irregular limit hand":
        "de stenen vormen geen vier sets en een paar, en ook geen onregelmatig limietspel",
    "the tiles form neither four sets and a pair nor an irregular limit hand (irregular hands must be "
    "fully concealed)": "de stenen vormen geen vier sets en een paar, en ook geen onregelmatig limietspel "
                        "(onregelmatige spellen zijn helemaal dicht)",
    "only <d> doubling(s); a mahjong needs at least <m> (a false mahjong makes a dead hand)":
        "maar <d> verdubbeling(en); mahjong vraagt er minstens <m> (een valse mahjong maakt een dood spel)",
    "only the winner's hand has a +winning tile": "alleen de hand van de winnaar heeft een +winnende steen",
    "dead hand: scores 0, still pays": "dood spel: 0 punten, betaalt wel",
    "<have> tiles where <want> belong: a dead hand (scores 0, still pays)":
        "<have> stenen waar er <want> horen: een dood spel (0 punten, betaalt wel)",
    # the rules' switches (config.py), from --config
    "unknown config switch <k> (known: <l>)": "onbekende config-schakelaar <k> (bekend: <l>)",
    "config <k> must be a whole number from 0 to <n>, not <v>": "config <k> moet een geheel getal van 0 tot <n> zijn, niet <v>",
    "config <k> must be true or false, not <v>": "config <k> moet true of false zijn, niet <v>",
    "config <k> must be one of <l>, not <v>": "config <k> moet een van <l> zijn, niet <v>",
    # notation errors (notation.py)
    "tile numbers are the plain digits 1 to 9": "steennummers zijn de gewone cijfers 1 tot 9",
    "tile numbers run from 1 to 9": "steennummers lopen van 1 tot 9",
    "suit letters are lowercase: write <w>": "kleurletters zijn kleine letters: schrijf <w>",
    "digits must be followed by a suit letter m, p or s": "na cijfers komt een kleurletter m, p of s",
    "flowers are f1..f4 and seasons j1..j4": "bloemen zijn f1..f4 en seizoenen j1..j4",
    "honours are uppercase (E S W N R G Wh); suit letters follow digits":
        "winden en draken zijn hoofdletters (E S W N R G Wh); kleurletters volgen op cijfers",
    "unknown tile": "onbekende steen",
    "a hand is written as text": "een hand wordt als tekst geschreven",
    "groups come before the +winning tile and the / bonus tiles":
        "sets komen vóór de +winnende steen en de / bloemen en seizoenen",
    "group opened with <a> is not closed before <b>": "set geopend met <a> is niet gesloten vóór <b>",
    "group opened with <a> is never closed": "set geopend met <a> wordt nooit gesloten",
    "empty group": "lege set",
    "<a> closes no group": "<a> sluit geen set",
    "only one +winning tile, written before the / bonus tiles":
        "maar één +winnende steen, vóór de / bloemen en seizoenen",
    "+ must be followed by the winning tile": "na + komt de winnende steen",
    "a flower or season cannot be the winning tile": "een bloem of seizoen kan niet de winnende steen zijn",
    "only one / before the bonus tiles": "maar één / vóór de bloemen en seizoenen",
    "only flowers (f1..f4) and seasons (j1..j4) go after /":
        "na / komen alleen bloemen (f1..f4) en seizoenen (j1..j4)",
    "the winning tile is written last (only / bonus tiles may follow)":
        "de winnende steen komt als laatste (alleen / bloemen en seizoenen mogen volgen)",
    "exactly one tile expected": "precies één steen verwacht",
    "only loose tiles here (groups go in melds)": "hier alleen losse stenen (sets horen bij de melds)",
    "a meld is one group in brackets, e.g. [555p] or {X55pX}":
        "een meld is één set tussen haken, bv. [555p] of {X55pX}",
    "only flowers (f1..f4) and seasons (j1..j4) are bonus tiles":
        "alleen bloemen (f1..f4) en seizoenen (j1..j4) zijn bonusstenen",
    # the command's own checks (cli_score.py)
    "--config value <v>: use true/false or a whole number": "--config-waarde <v>: kies true/false of een geheel getal",
    "--ruleset <v>: use nts or nts-app (riichi settlement goes through --json)":
        "--ruleset <v>: kies nts of nts-app (een riichi-afrekening gaat via --json)",
    "<o> is missing: give E, S, W or N": "<o> ontbreekt: geef E, S, W of N",
    "<o> <v>: give E, S, W or N": "<o> <v>: geef E, S, W of N",
    "--bonus <t>: only flowers (f1..f4) and seasons (j1..j4) are bonus tiles":
        "--bonus <t>: alleen bloemen (f1..f4) en seizoenen (j1..j4) zijn bonusstenen",
    "give only one of --self-drawn, --discard, --robbed-kong": "kies maar één van --self-drawn, --discard, --robbed-kong",
    "how was the hand won? give --self-drawn, --discard or --robbed-kong":
        "hoe is de hand gewonnen? geef --self-drawn, --discard of --robbed-kong",
    "the winning tile is missing: write it last in the hand as +tile (e.g. +6s)":
        "de winnende steen ontbreekt: schrijf hem als laatste in de hand als +steen (bv. +6s)",
    "--config <v>: write KEY=VALUE, e.g. wind_pair_points=false":
        "--config <v>: schrijf SLEUTEL=WAARDE, bv. wind_pair_points=false",
    'give a hand in notation, e.g. mjscore score <ex> --seat E --wind S --self-drawn, or --json FILE':
        "geef een hand in notatie, bv. mjscore score <ex> --seat E --wind S --self-drawn, of --json BESTAND",
    "the hand is empty: write its tiles in notation, e.g. <ex>":
        "de hand is leeg: schrijf de stenen in notatie, bv. <ex>",
    "only <have> tile(s) where <want> belong (13, 14 for the winner, plus one per kong; bonus tiles not counted)":
        "maar <have> steen/stenen waar er <want> horen (13, 14 voor de winnaar, plus één per kong; bloemen en "
        "seizoenen niet meegeteld)",
    # the context of a scan (handscan/context.py, handscan/cli_scan.py): options and context files
    "seat <v> is not a wind (E, S, W or N)": "eigen wind <v> is geen wind (E of O, S of Z, W, N)",
    "prevailing wind <v> is not a wind (E, S, W or N)": "ronde <v> is geen wind (E of O, S of Z, W, N)",
    "winning tile <v> is not a tile (examples: 5p, 9s, 1m, E, R, Wh)":
        "winnende steen <v> is geen steen (bv. 5p, 9s, 1m, E, R, Wh)",
    "win type <v> is not one of <l>": "manier van winnen <v> is geen van <l>",
    "ruleset <v> is not one of <l>": "regels <v> zijn geen van <l>",
    "special <v> is not one of <l>": "bijzonder moment <v> is geen van <l>",
    "give only one of --discard, --self-drawn, --robbed-kong": "kies maar één van --discard, --self-drawn, --robbed-kong",
    "--threshold is a confidence between 0 and 1": "--threshold is een zekerheid tussen 0 en 1",
    "not valid JSON: <m> (line <l>, column <c>)": "geen geldige JSON: <m> (regel <l>, kolom <c>)",
    "must be one JSON object like <e>, not a <t>": "moet één JSON-object zijn, zoals <e>",
    "unknown key <k> (known: <l>)": "onbekende sleutel <k> (bekend: <l>)",
    "<k> must be a text like \"E\" or \"5p\", not <v>": "<k> moet een tekst zijn, zoals \"E\" of \"5p\", niet <v>",
    "'special' must be a text or a list of texts, not <v>": "'special' moet een tekst of een lijst teksten zijn, niet <v>",
    "give the prevailing wind once: 'wind' or 'prevailing_wind', not both":
        "geef de ronde één keer: 'wind' of 'prevailing_wind', niet allebei",
    "not UTF-8 text (byte <b>)": "geen UTF-8-tekst (byte <b>)",
    "is a folder, not a file": "is een map, geen bestand",
    "cannot be read (<m>)": "kan niet gelezen worden (<m>)",
    "nested too deeply": "te diep genest",
    # a photo scan cannot read (handscan/pipeline.py, vision/imageio.py), as scan prints it
    "no such photo: <f>": "foto bestaat niet: <f>",
    "<f> is a folder, not a photo (mjscore batch reads a folder)": "<f> is een map, geen foto (mjscore batch leest een map)",
    "<f>: no such file": "<f>: bestand bestaat niet",
    "<f>: is a directory, not an image": "<f>: is een map, geen foto",
    "<f>: the file is empty (0 bytes), not an image": "<f>: het bestand is leeg (0 bytes), geen foto",
    "<f>: the image is damaged or truncated": "<f>: de foto is beschadigd of afgebroken",
    "<f>: the image is damaged or truncated (<d>)": "<f>: de foto is beschadigd of afgebroken (<d>)",
    # the scan's own warnings and nearest hands as the command line says them (handscan); the
    # layout's reasons and warnings follow below, with the page's texts
    "tile <i> (<k>) lies far from the others: a tile of this hand?":
        "steen <i> (<k>) ligt ver van de andere: hoort hij bij deze hand?",
    "the winning tile <t> is not among the concealed tiles": "de winnende steen <t> zit niet bij de dichte stenen",
    "tile <i> read as <k> instead of <o>": "steen <i> gelezen als <k> in plaats van <o>",
    "tiles <l> read as <k> instead of <o>": "stenen <l> gelezen als <k> in plaats van <o>",
    "tile <i> (<k>, <c>) is not a tile of the hand": "steen <i> (<k>, <c>) hoort niet bij de hand",
    "tiles grouped again": "stenen opnieuw ingedeeld",
    "a tile may be missing: <k> added (also possible: <l>)":
        "misschien ontbreekt een steen: <k> toegevoegd (ook mogelijk: <l>)",
    "a tile may be missing: <k> added (the only kind that completes the hand)":
        "misschien ontbreekt een steen: <k> toegevoegd (de enige soort die de hand compleet maakt)",
    "a valid reading is proposed: <h>": "voorgesteld, een geldige lezing: <h>",
    "tile <i> (<k>, <c>) decides the score: final <f> as <r>, <g> as <o>; check it":
        "steen <i> (<k>, <c>) bepaalt de score: eindscore <f> als <r>, <g> als <o>; controleer hem",
    # These two name command-line options, and so does their Dutch. They come before
    # the page's wording of the same messages further down (tap a set), so `translate` finds
    # these first (the page would word them in web/, its own catalogue).
    "grouping of set <l> is doubtful: check the sets, regroup with 'move' or give --hand":
        "indeling van set <l> is twijfelachtig: controleer de sets, deel anders in met 'move' of geef --hand",
    "tile <i> (<k>) lies apart at the end of the concealed row: the winning tile? (give --winning-tile <t>)":
        "steen <i> (<k>) ligt apart aan het eind van de dichte rij: de winnende steen? (geef --winning-tile <t>)",
    # reading a --json request (request_file.py); the reader's own detail <m> stays as Python says it
    "<f> is a folder, not a request file": "<f> is een map, geen verzoekbestand",
    "no such file: <f>": "bestand bestaat niet: <f>",
    "cannot read <f>: <m>": "kan <f> niet lezen: <m>",
    "<f> is not valid JSON: <m> (line <l>, column <c>)": "<f> is geen geldige JSON: <m> (regel <l>, kolom <c>)",
    "<f> is nested too deeply to be a request": "<f> is te diep genest voor een verzoek",
    "<f> holds a number too long to be part of a request": "<f> bevat een te lang getal voor een verzoek",
    'the request must be one JSON object (a cases.json input plus "ruleset")':
        'het verzoek is één JSON-object (een cases.json-invoer plus "ruleset")',
    # the layout's grouping reasons and warnings (vision/layout), shown by the page; a reason of
    # several parts joined by "; " is translated part by part (web/i18n.py)
    "the largest block of <n> tiles in the row": "het grootste blok van <n> stenen in de rij",
    "the largest block of <n> tile in the row": "het grootste blok van <n> steen in de rij",
    "block of <n> tiles in the concealed row": "blok van <n> stenen in de dichte rij",
    "block of <n> tile in the concealed row": "blok van <n> steen in de dichte rij",
    "four tiles with face-down ones: a declared concealed kong":
        "vier stenen waarvan omgekeerde: een gemelde dichte kong",
    "face-down tiles among set-apart tiles": "omgekeerde stenen tussen apart gelegde stenen",
    "<n> tiles with face-down ones do not form a declared kong":
        "<n> stenen met omgekeerde vormen geen gemelde kong",
    "holds a sideways tile (claimed discard)": "heeft een dwarse steen (geclaimde afgooi)",
    "set apart by a gap of <g> tile widths": "apart gelegd met een ruimte van <g> steenbreedtes",
    "set apart by a no gap": "apart gelegd",
    "lies in the row of sets, apart from the concealed row": "ligt in de rij met sets, los van de dichte rij",
    "not part of the concealed block": "geen deel van het dichte blok",
    "but <n> tiles <t> do not form sets": "maar <n> stenen <t> vormen geen sets",
    "tiles <a>-<b> of a block of <n> split into sets": "stenen <a>-<b> van een blok van <n>, verdeeld in sets",
    "flower/season tile: laid aside, scored apart from the sets":
        "bloem of seizoen: apart gelegd, los van de sets geteld",
    "flowers/seasons are laid aside and scored apart from the sets":
        "bloemen en seizoenen liggen apart en tellen los van de sets",
    "set by hand": "met de hand gekozen",
    "from the photo": "van de foto",
    "no tiles found in the photo": "geen stenen gevonden op de foto",
    "<n> tiles in sets and concealed part; a winning hand has 14 + one per kong (<m>): a tile may be missing":
        "<n> stenen in sets en dichte deel; een winnende hand heeft er 14 + één per kong (<m>): er ontbreekt "
        "misschien een steen",
    "<n> tiles in sets and concealed part; a winning hand has 14 + one per kong (<m>): a tile may be extra":
        "<n> stenen in sets en dichte deel; een winnende hand heeft er 14 + één per kong (<m>): er is misschien "
        "een steen te veel",
    "exposed group <g> is not a pung, chow or kong": "open set <g> is geen pung, chow of kong",
    "concealed kong <g> is not four of one kind with face-down tiles":
        "dichte kong <g> is geen vier gelijke met omgekeerde stenen",
    "a face-down tile (X) lies among the concealed tiles": "er ligt een omgekeerde steen (X) tussen de dichte stenen",
    "concealed part of <n> tiles is not 3n+2": "dichte deel van <n> stenen is geen 3n+2",
    "a second box on the <k> tile (read <r>, <c>) was dropped":
        "een tweede vak op de steen <k> (gelezen als <r>, <c>) is weggelaten",
    # the photo pipeline's warnings (handscan/pipeline.py, handscan/hand.py)
    "grouping of set <s> is doubtful: check the sets, regroup with 'move' or give --hand":
        "de indeling van set <s> is twijfelachtig: controleer de sets (tik op een set om hem te veranderen)",
    "tile <n> (<k>) lies apart at the end of the concealed row: the winning tile? (give --winning-tile <w>)":
        "steen <n> (<k>) ligt apart aan het eind van de dichte rij: de winnende steen?",
    "the winning tile <t> is not among the concealed tiles read from the photo (<c>)":
        "de winnende steen <t> zit niet tussen de dichte stenen op de foto (<c>)",
    "the winning tile <t> lies only in the exposed set <g>: read as the set it completed, laid open after the win":
        "de winnende steen <t> ligt alleen in de open set <g>: gelezen als de set die hij afmaakte, na de winst "
        "opengelegd",
    "flowers/seasons only score under --ruleset nts-app": "bloemen en seizoenen tellen alleen bij de NTS-app-regels",
    "a complete hand, but fewer than the 2 doublings a mahjong needs: a false mahjong":
        "een complete hand, maar minder dan de 2 verdubbelingen die mahjong vraagt: een valse mahjong",
    "the --special flags do not fit this seat or win type":
        "de bijzondere momenten passen niet bij deze wind of manier van winnen",
    "<w> <v> is not a tile (examples: 5p, 9s, 1m, E, R, Wh)": "<w> <v> is geen steen (bv. 5p, 9s, 1m, E, R, Wh)",
    "the hand says +<t> but the winning tile given is <g>": "de hand zegt +<t> maar de gekozen winnende steen is <g>",
    # the review's commands as the page's set edits use them (handscan/review.py, web/regroup.py)
    "<t> is not a tile kind (1m..9m 1p..9p 1s..9s E S W N R G Wh f1..f4 j1..j4 X)":
        "<t> is geen steensoort (1m..9m 1p..9p 1s..9s E S W N R G Wh f1..f4 j1..j4 X)",
    "<t> is not a tile kind (1m..9m, 1p..9p, 1s..9s, E S W N, R G Wh, f1..f4, j1..j4, X)":
        "<t> is geen steensoort (1m..9m, 1p..9p, 1s..9s, E S W N, R G Wh, f1..f4, j1..j4, X)",
    "there is no tile <n> (tiles are numbered 1-<m>)": "er is geen steen <n> (de stenen zijn genummerd 1-<m>)",
    "there is no group <n> (groups are numbered 1-<m>)": "er is geen set <n> (de sets zijn genummerd 1-<m>)",
    "tile <n> is in two groups": "steen <n> zit in twee sets",
    "group <n>: there is no tile <t> (tiles are numbered 1-<m>)": "set <n>: er is geen steen <t> (de stenen zijn genummerd 1-<m>)",
    "group <n>: kind must be one of <k>, not <v>": "set <n>: soort moet een van <k> zijn, niet <v>",
    "a set is one of <k>, not <v>": "een set is een van <k>, niet <v>",
    "choose tiles of set <n> to split off": "kies stenen van set <n> om af te splitsen",
    "choose some of the set's tiles, not all of them, to split off":
        "kies een deel van de stenen van de set om af te splitsen, niet allemaal",
    "choose another set to merge with": "kies een andere set om mee samen te voegen",
    "say which tile to add (kind, e.g. 5p)": "zeg welke steen erbij komt (soort, bv. 5p)",
    "say which kind the tile is (e.g. 5p)": "zeg welke soort de steen is (bv. 5p)",
    "tile <n>: <k> is not a tile kind (1m..9m, 1p..9p, 1s..9s, E S W N, R G Wh, f1..f4, j1..j4, X)":
        "steen <n>: <k> is geen steensoort (1m..9m, 1p..9p, 1s..9s, E S W N, R G Wh, f1..f4, j1..j4, X)",
    "tile <n>: box must be four numbers x1, y1, x2, y2": "steen <n>: het vak is vier getallen x1, y1, x2, y2",
    "tile <n>: box must be four numbers x1, y1, x2, y2 on the photo":
        "steen <n>: het vak is vier getallen x1, y1, x2, y2 op de foto",
    "tile <n>: angle must be 0, 90, 180 or 270, not <a>": "steen <n>: de hoek is 0, 90, 180 of 270, niet <a>",
    "<n> tiles sent; at most <m> are accepted": "<n> stenen gestuurd; er mogen er hoogstens <m> zijn",
    "send the tiles from a scan or a hand in notation": "stuur de stenen van een foto of een hand in notatie",
    # the web page's photo checks (web/photo.py, web/app.py)
    "the upload is empty: choose or take a photo": "er is niets geüpload: kies of maak een foto",
    "the photo is <s>; at most <m> is accepted": "de foto is <s>; hoogstens <m> is toegestaan",
    "the upload is <s>; at most <m> is accepted": "de upload is <s>; hoogstens <m> is toegestaan",
    "the photo is larger than <s>; at most <m> is accepted": "de foto is groter dan <s>; hoogstens <m> is toegestaan",
    "the upload is over <s>; at most that is accepted": "de upload is groter dan <s>; meer is niet toegestaan",
    "the upload starts like a <f> image but cannot be read as one":
        "de upload begint als een <f>-afbeelding maar is niet als zo een te lezen",
    "the image is damaged or truncated<d>": "de afbeelding is beschadigd of afgebroken<d>",
    "the request body stopped arriving (nothing for <s> s); send all of it":
        "het verzoek kwam niet verder binnen (<s> s niets); stuur het helemaal",
    # sessions from the page (web/services.py, match/)
    "<p> does not play in session <n> (<all>)": "<p> speelt niet mee in sessie <n> (<all>)",
    "a draw (remise) has no winner, hands, scores or dead hands":
        "een remise heeft geen winnaar, handen, punten of dode spellen",
    "say who won, or record a draw": "zeg wie er won, of noteer een remise",
    "<p> sits <s> in this game of the session, but the hand was scored for seat <h>: set the seat wind to <w>":
        "<p> zit <s> in dit spel van de sessie, maar de hand is geteld voor eigen wind <h>: kies eigen wind <w>",
    "the prevailing wind of this game is <w>, but the hand was scored with <h>":
        "de windronde van dit spel is <w>, maar de hand is geteld met <h>",
    "this is a riichi session: record the hand with han and fu":
        "dit is een riichi-sessie: noteer de hand met han en fu",
    "this is an <r> session: record the winner's hand or score":
        "dit is een <r>-sessie: noteer de hand of de punten van de winnaar",
    "session <n> (<name>) is finished after <g> games; no more games can be added (`session undo` re-opens it, "
    "`session new` starts another)": "sessie <n> (<name>) is afgelopen na <g> spellen; er kunnen geen spellen meer "
                                     "bij (terugnemen opent hem weer, of begin een nieuwe sessie)",
    "session <n> (<name>) has no games to undo": "sessie <n> (<name>) heeft geen spellen om terug te nemen",
    "session <n> (<name>) is already finished": "sessie <n> (<name>) is al afgelopen",
    "there is no session <n>": "er is geen sessie <n>",
    "a session needs exactly four player names, e.g. --players Anna,Bram,Cor,Dirk":
        "een sessie heeft precies vier spelersnamen nodig, bv. Anna, Bram, Cor, Dirk",
    "player names must differ: <p>": "spelersnamen moeten verschillen: <p>",
    "score of <p> must be 0 to <m> (the limit), not <v>": "de punten van <p> zijn 0 tot <m> (de limiet), niet <v>",
    "<p> has both a hand and a score; give one of them": "<p> heeft zowel een hand als punten; geef één van beide",
    "<p> cannot both win and have a dead hand": "<p> kan niet winnen en tegelijk een dood spel hebben",
    "<p> has a dead hand and scores 0, not <v>": "<p> heeft een dood spel en krijgt 0 punten, niet <v>",
    "<p> cannot win on his own discard; use --self-drawn": "<p> kan niet winnen op zijn eigen afgooi; kies zelf gepakt",
    "a self-drawn win has no discarder": "een zelf gepakte winst heeft niemand die afgooide",
    "no hand or score for <p>: give --hand-of NAME=HAND or --score-of NAME=POINTS (or --dead NAME)":
        "geen hand of punten voor <p>: vul een hand of punten in (of een dood spel)",
    "a ron needs a winner (--winner NAME --han N --fu N)": "een ron heeft een winnaar nodig (met han en fu)",
    "a ron needs the player who discarded: --ron-from NAME": "een ron heeft de speler nodig die afgooide",
    "<p> cannot win on his own discard; use --tsumo": "<p> kan niet winnen op zijn eigen afgooi; kies tsumo",
    "a tsumo has exactly one winner": "een tsumo heeft precies één winnaar",
    "a tsumo has no discarder (--ron-from)": "een tsumo heeft niemand die afgooide",
    "a <o> has no winners": "een <o> heeft geen winnaars",
    "name the player who made the chombo: --chombo NAME": "noem de speler die de chombo maakte",
    "han of <p> must be 1 or more (or 'yakuman')": "de han van <p> is 1 of meer (of yakuman)",
    "<p> has <h> han: give the fu too (--fu)": "<p> heeft <h> han: geef ook de fu",
    "fu of <p> must be one of <list>": "de fu van <p> is een van <list>",
    "hand of <p>: <m>": "hand van <p>: <m>",
    "the winning tile of <p> is missing: write it last as +tile in the hand, or give --winning-tile":
        "de winnende steen van <p> ontbreekt: schrijf hem als laatste als +steen in de hand",
    "riichi sessions are kept with `mjscore session` (han/fu); the page scores nts and nts-app hands":
        "riichi-sessies worden bijgehouden met han en fu",
    # nearby readings offered for an invalid hand (handscan/alternatives.py, vision/layout/alternatives.py)
    "tile <n> read as <k> instead of <o>": "steen <n> gelezen als <k> in plaats van <o>",
    "tile <n> (<k>, <c>) is not a tile of the hand": "steen <n> (<k>, <c>) is geen steen van de hand",
    "<g> is concealed, not exposed": "<g> is dicht, niet open",
    "<g> split: <a> exposed, <b> concealed": "<g> gesplitst: <a> open, <b> dicht",
    "<g> split into <a> <b>": "<g> gesplitst in <a> <b>",
    "<g> exposed, not concealed": "<g> open, niet dicht",
    "other grouping: <n>": "andere indeling: <n>",
    # teaching a set from the page (web/teach.py, vision/sets.py)
    "tiles must be a JSON list of {kind, box}": "de stenen zijn een JSON-lijst van {kind, box}",
    "send the photo's corrected tiles to teach from (none were sent)":
        "stuur de verbeterde stenen van de foto om van te leren (er zijn er geen gestuurd)",
    "tile <n>: <k> is not a tile kind a set can learn": "steen <n>: <k> is geen steensoort die een set kan leren",
}

# what the command line itself says around a message
PREFIX = {"en": "error", "nl": "fout"}

_FIELD = re.compile(r"<(\w+)>")


def _pattern(template: str) -> re.Pattern:
    parts = _FIELD.split(template)           # text, name, text, name, ...
    # a variable part never spans "; ", which joins the parts of a layout reason
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>(?:(?!; ).)+?)"
                              for i, p in enumerate(parts)) + r"\Z", re.S)


_PATTERNS = [(_pattern(en), nl) for en, nl in NL.items()]
# a notation error as ``str()`` gives it: ``where: message (token 'x' at position n)``
_LOCATED = re.compile(r"(?:(?P<where>[^\s:]+): )?(?P<message>.+) \(token (?P<token>.+) at position (?P<at>\d+)\)\Z", re.S)


def translate(message: str, lang: str) -> str | None:
    """``message`` in ``lang``: itself for English, the Dutch rendering of its template for
    ``nl``, None where the table has no template for it."""
    if lang != "nl":
        return message
    for pattern, nl in _PATTERNS:
        found = pattern.match(message)
        if found:
            return _FIELD.sub(lambda m: found.group(m.group(1)), nl)
    located = _LOCATED.match(message)
    if located:
        said = translate(located.group("message"), lang)
        if said:
            where = located.group("where")
            return (f"{where}: " if where else "") + f"{said} (teken {located.group('token')} op positie {located.group('at')})"
    return None


def say(message: str, lang: str) -> str:
    """``message`` in ``lang`` for a reader, never None: the whole message's template, else
    each part of a message joined by ``; `` (a layout reason) through its own, else the
    message as it is."""
    if lang != "nl" or not message:
        return message
    whole = translate(message, lang)
    if whole is not None:
        return whole
    parts = message.split("; ")
    return "; ".join(translate(p, lang) or p for p in parts) if len(parts) > 1 else message


def reason_text(reason: str, message: str, lang: str) -> str:
    """The refusal line's text: ``reason - message`` in English (as the engine says it), the
    Dutch name of the reason and the Dutch message in ``nl``."""
    if lang != "nl":
        return f"{reason} - {message}"
    from .reasons import label
    said = translate(message, lang)
    return f"{label(reason, lang)} - {said}" if said else label(reason, lang)


def error_line(message: str, lang: str, where: str = "") -> str:
    """One ``error:`` line of the command in ``lang`` (English where no template fits);
    ``where`` names the option a notation came from (``--bonus``)."""
    return f"{PREFIX.get(lang, PREFIX['en'])}: {where + ': ' if where else ''}{translate(message, lang) or message}"
