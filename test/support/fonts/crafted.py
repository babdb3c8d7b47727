"""Fonts for the font-bounds tests (test/api/font-bounds.test.ts), built with fontTools.

    python crafted.py OUT VARIANT

VARIANT:
  colr    issue 41's attack: a 19,000-point glyph and 40 emoji (U+E000 to U+E027), each a COLRv1
          paint graph of 1,000 layers clipped to that glyph
  layers  40 emoji of 1,000 layers each clipped to a 4,000-point glyph: every glyph within the
          points bound, 4 million clip points per emoji
  points  a plain TrueType font whose "B" has 19,000 outline points
  fine    a small COLRv1 font within every bound: "A" an outline, U+E000 an emoji of 3 layers
"""
import math
import sys

from fontTools.colorLib.builder import buildCOLR, buildCPAL
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib.tables import otTables as ot


def polygon(points):
    pen = TTGlyphPen(None)
    pen.moveTo(points[0])
    for p in points[1:]:
        pen.lineTo(p)
    pen.closePath()
    return pen.glyph()


def box():
    return polygon([(100, 0), (100, 700), (500, 700), (500, 0)])


def ring(n):
    # n distinct integer points on an ellipse-ish spiral: no two round to the same place.
    return polygon([(k % 1000, 700 * k // n) for k in range(n)])


def empty():
    return TTGlyphPen(None).glyph()


def build(out, variant):
    emoji = [f"e{i}" for i in range(40 if variant in ("colr", "layers") else 1)]
    order = [".notdef", "space", "A", "B", "big"] + emoji
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(order)
    cmap = {0x20: "space", 0x41: "A", 0x42: "B"}
    cmap.update({0xE000 + i: name for i, name in enumerate(emoji)})
    fb.setupCharacterMap(cmap)
    glyphs = {".notdef": box(), "space": empty(), "A": box(), "B": box(), "big": box()}
    if variant in ("colr", "points"):
        glyphs["big"] = ring(19_000)
    if variant == "layers":
        glyphs["big"] = ring(4_000)
    if variant == "points":
        glyphs["B"] = ring(19_000)
    glyphs.update({name: empty() for name in emoji})
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({name: (600, 0) for name in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": f"Crafted {variant}", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    if variant in ("colr", "layers", "fine"):
        layers = 3 if variant == "fine" else 1000
        clip = "A" if variant == "fine" else "big"
        paint = {
            "Format": ot.PaintFormat.PaintColrLayers,
            "Layers": [
                {
                    "Format": ot.PaintFormat.PaintGlyph,
                    "Paint": {"Format": ot.PaintFormat.PaintSolid, "PaletteIndex": k % 2, "Alpha": 1.0},
                    "Glyph": clip,
                }
                for k in range(layers)
            ],
        }
        fb.font["COLR"] = buildCOLR(
            {name: paint for name in emoji}, version=1, glyphMap=fb.font.getReverseGlyphMap(), allowLayerReuse=False
        )
        fb.font["CPAL"] = buildCPAL([[(0.8, 0.1, 0.1, 1.0), (0.1, 0.1, 0.8, 1.0)]])
    fb.save(out)


if __name__ == "__main__":
    build(sys.argv[1], sys.argv[2])
