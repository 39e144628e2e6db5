"""Parses an mx-layout SVG with xml.etree (so it must be well-formed XML with
the SVG namespace) and prints the number of panels, the cells (rectangles)
of each panel, the colour key of the first panel and the distinct labels of
lane 0 in the first panel."""
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == NS + "svg", root.tag
assert int(root.get("width")) > 0 and int(root.get("height")) > 0
panels = root.findall(NS + "g")
print("svg ok: %d panels" % len(panels))
print("cells: " + " ".join(str(len(p.findall(NS + "rect"))) for p in panels))
key = panels[0].find(NS + "g")
if key is not None:
    swatches = key.findall(NS + "rect")
    names = [t.text for t in key.findall(NS + "text")]
    assert len(swatches) == len(names)
    assert len(set(r.get("fill") for r in swatches)) == len(swatches)
    print("key: " + ", ".join(names))
labels = []
for t in panels[0].findall(NS + "text"):
    if t.text and t.text.startswith("L0 ") and t.text not in labels:
        labels.append(t.text)
for label in labels:
    print("label: " + label)
