#!/usr/bin/python3
"""End-to-end tests of `mesure_memoire sweep` and `collect`, run by CTest
(label `sweep`), one case per call:

    test_sweep_cli.py MESURE_MEMOIRE WORK_DIR CASE

The points of a measuring sweep run as fresh processes of the stand-in
fake_point_program.py (--point-program), so every path is exercised without
a GPU: signals, terminals, concurrent devices, the files and their schemas,
the plot rendered by rsvg-convert and the page by headless Chromium. A case
prints `ITERAGPU-SKIP: why` (a CTest skip) only where a tool it needs is
missing. The PNGs are kept in WORK_DIR for a person to look at."""
import fcntl
import json
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
import xml.etree.ElementTree as ElementTree
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_point_program.py")
SCHEMAS = os.path.join(HERE, "..", "..", "data", "schema")
VALIDATE = os.path.join(HERE, "..", "schema", "validate.py")
SVG = "{http://www.w3.org/2000/svg}"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Case:
    def __init__(self, program, work):
        self.program = program
        self.work = work
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        self.config = os.path.join(work, "fake.json")
        self.log = os.path.join(work, "processes.log")
        self.configure({})

    def configure(self, settings):
        settings = dict(settings, log=self.log)
        settings.setdefault("gpu_names", {"cuda:0": "Fake A", "cuda:1": "Fake B"})
        with open(self.config, "w", encoding="utf-8") as f:
            json.dump(settings, f)

    def env(self):
        return dict(os.environ, ITERAGPU_FAKE_POINT_CONFIG=self.config)

    def path(self, *names):
        return os.path.join(self.work, *names)

    def run(self, *args, expect=0):
        done = subprocess.run([self.program, *args], capture_output=True, text=True, env=self.env(), timeout=120)
        check(done.returncode == expect,
              f"{' '.join(args)}: exit {done.returncode}, expected {expect}\nstdout: {done.stdout}\nstderr: {done.stderr}")
        return done

    def sweep_with_fake(self, folder, *args, expect=0):
        return self.run("sweep", "--device", "cuda:0", "--point-program", FAKE, "--output-dir", self.path(folder),
                        *args, expect=expect)

    def start(self, *args):
        """The program in a session of its own, as a terminal's foreground job."""
        return subprocess.Popen([self.program, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=self.env(), start_new_session=True)


def records(folder):
    names = sorted(n for n in os.listdir(folder) if re.fullmatch(r"point-[0-9]{4,}\.json", n))
    return {n: json.load(open(os.path.join(folder, n), encoding="utf-8")) for n in names}


def validate(schema, files):
    done = subprocess.run(["/usr/bin/python3", VALIDATE, os.path.join(SCHEMAS, schema), *files], capture_output=True,
                          text=True)
    check(done.returncode == 0, f"{schema}: {done.stdout}{done.stderr}")


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise Failure(f"timed out waiting for {what}")


def partials(folder):
    return [n for n in os.listdir(folder) if n.endswith(".partial") or n.endswith(".partial-link")]


# ---- PNG, read with the standard library ---------------------------------------

def png_pixels(path):
    """(width, height, rows of (r, g, b)) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG")
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    check(depth == 8 and colour in (2, 6) and interlace == 0, f"{path}: unexpected PNG format {header}")
    step = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * step
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up = previous[i]
            corner = previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, step)])
        previous = line
    return width, height, rows


def check_not_blank(path, width, height):
    w, h, rows = png_pixels(path)
    check((w, h) == (width, height), f"{path}: {w}x{h}, expected {width}x{height}")
    pixels = [p for row in rows for p in row]
    ink = sum(1 for p in pixels if p != (255, 255, 255))
    colours = len(set(pixels))
    print(f"{os.path.basename(path)}: {w}x{h}, {100.0 * ink / len(pixels):.1f} % not white, {colours} colours")
    check(ink > len(pixels) // 100, f"{path} is nearly blank ({ink} pixels not white)")
    check(colours >= 5, f"{path} has only {colours} colours")
    return rows


# ---- the cases -----------------------------------------------------------------

def predict_only_100_points(c):
    started = time.monotonic()
    done = c.run("sweep", "--predict-only", "--output-dir", c.path("plan"), "--batch", "1..512", "--context", "1024",
                 "--width", "64..32768", "--dtype", "bfloat16", "--memory-gib", "139.8")
    elapsed = time.monotonic() - started
    print(f"a --predict-only sweep of 100 points took {elapsed:.2f} s")
    check(len(records(c.path("plan"))) == 100, "expected 100 records")
    check("points: predicted 97, skipped_device_memory 3, without a result 0" in done.stdout, done.stdout)
    check(elapsed < 10, f"{elapsed:.2f} s, expected under 10 s")


def schemas(c):
    c.run("sweep", "--predict-only", "--output-dir", c.path("plan"), "--batch", "8..512", "--context", "4096",
          "--width", "8192", "--dtype", "bfloat16", "--memory-gib", "139.8", "--host-memory-gib", "2")
    c.run("sweep", "--predict-only", "--output-dir", c.path("huge"), "--width", "1024,4611686018427387904",
          "--repeats", "auto")
    c.configure({"schema": 2, "oom_above_bytes": 40000, "fail_batch": 2})
    c.sweep_with_fake("measured", "--batch", "1..16")
    files, predictions, outcomes = [], [], set()
    for folder in ("plan", "huge", "measured"):
        for name, record in records(c.path(folder)).items():
            files.append(c.path(folder, name))
            outcomes.add(record["outcome"])
            if record["outcome"] == "predicted":
                predictions.append(c.path(folder, record["files"]["prediction"]))
    check(outcomes == {"predicted", "skipped_host_memory", "skipped_unpredictable", "measured", "failed",
                       "out_of_memory", "skipped_after_failure"}, f"outcomes: {sorted(outcomes)}")
    validate("sweep-point.schema.json", files)
    validate("sweep-prediction.schema.json", predictions)
    print(f"{len(files)} records and {len(predictions)} prediction files follow their schemas")
    # The host rule with --host-memory-gib 2: width 8192 in bfloat16 builds 2,684,518,400 bytes > 2 GiB.
    first = records(c.path("plan"))["point-0000.json"]
    check(first["outcome"] == "skipped_host_memory", first)
    check(first["reason"] == "skipped: predicted host 2684518400 bytes > available 2147483648 bytes (float32 build "
                             "on the CPU 2147647488 + converted copy 536870912)", first["reason"])


def plot_svg(c):
    c.configure({"schema": 2, "oom_above_bytes": 10_000_000_000, "fail_batch": 16, "free_bytes": 200_000_000_000,
                 "gpu_names": {"cuda:0": "Fake H200 & <co>"}})
    c.sweep_with_fake("measured", "--batch", "8..512", "--context", "4096", "--width", "8192", "--dtype", "bfloat16")
    c.run("sweep", "--predict-only", "--output-dir", c.path("plan"), "--width", "1024..131072", "--batch", "1",
          "--context", "1024", "--dtype", "bfloat16", "--memory-gib", "139.8")
    if shutil.which("rsvg-convert") is None:
        print("ITERAGPU-SKIP: rsvg-convert is missing (Debian package librsvg2-bin)")
        return
    for folder, axis, needed in (
            ("measured", "batch", ["GPU: Fake H200 & <co>", "peak reserved, measured", "peak allocated, measured",
                                   "seconds per pass (log10 scale)", "failed, labelled with its", "exit 1", "exit 3",
                                   "skipped after a failure: a", "device total memory, Fake H200 & <co>: 140.0 GiB"]),
            ("plan", "width", ["Every point below is a PREDICTION", "No timing: these points are predictions, nothing ran",
                               "skipped for device memory:", "usable memory given (--memory-gib): 139.8 GiB"])):
        svg = c.path(folder, "plot.svg")
        root = ElementTree.parse(svg).getroot()  # well-formed XML, or this raises
        check(root.tag == SVG + "svg", root.tag)
        check(root.find(SVG + "title").text == f"mesure_memoire sweep: peak memory against {axis}",
              root.find(SVG + "title").text)
        texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
        for label in [f"mesure_memoire sweep: peak memory against {axis}",
                      "peak memory on the device (log2 scale)", "1 GiB = 2^30 bytes", "Legend",
                      "peak reserved, predicted"] + needed:
            check(any(label in t for t in texts), f"{svg}: no text {label!r}")
        check(any(t.startswith(axis + " (") and "log2 scale" in t for t in texts), f"{svg}: no {axis} axis label")
        check("Configuration: context 4096, width 8192, bfloat16, warmup 1, repeats 2" in texts or folder == "plan",
              f"{svg}: no configuration line")
        png = c.path(f"plot-{folder}.png")
        subprocess.run(["rsvg-convert", "-o", png, svg], check=True, timeout=60)
        check_not_blank(png, round(float(root.get("width"))), round(float(root.get("height"))))
        # A failed point's red triangle in the measured plot, none among predictions.
        failed = [p for p in root.iter(SVG + "polygon") if p.get("fill") == "#d62728"]
        check(bool(failed) == (folder == "measured"), f"{svg}: {len(failed)} failed markers")


# ---- the plot's layout, estimated as plot_svg() estimates it -------------------

def text_width(text, size, bold):
    """A conservative width in pixels (DejaVu Sans): wide letters 0.95 em, capitals and digits 0.75 em, others
    0.62 em; bold 12 % more."""
    ems = sum(0.95 if ch in "mwMW@%" or ord(ch) >= 0x80 else 0.75 if ch.isupper() or ch.isdigit() or ch in "&#"
              else 0.62 for ch in text)
    return ems * size * (1.12 if bold else 1.0)


def text_box(element):
    """(left, top, right, bottom) of a <text>, its rotation about a point applied."""
    size = float(element.get("font-size", "13"))
    width = text_width("".join(element.itertext()), size, element.get("font-weight") == "bold")
    x, y = float(element.get("x")), float(element.get("y"))
    anchor = element.get("text-anchor", "start")
    start = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
    corners = [(start, y - 0.8 * size), (start + width, y + 0.25 * size)]
    rotation = re.fullmatch(r"rotate\((-?[0-9.]+) ([0-9.]+) ([0-9.]+)\)", element.get("transform", "")) \
        if element.get("transform") else None
    if element.get("transform"):
        check(rotation is not None and float(rotation.group(1)) == -90, f"unexpected transform {element.get('transform')}")
        cx, cy = float(rotation.group(2)), float(rotation.group(3))
        corners = [(cx + (py - cy), cy - (px - cx)) for px, py in corners]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return min(xs), min(ys), max(xs), max(ys)


def overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_layout(svg, panels):
    """Every text inside the picture, the legend beside the panels, legend entries told apart."""
    root = ElementTree.parse(svg).getroot()
    width, height = float(root.get("width")), float(root.get("height"))
    check(root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}", root.get("viewBox"))
    found = [g for g in root.iter(SVG + "g") if g.get("class") == "panel"]
    check(len(found) == panels, f"{svg}: {len(found)} panels, expected {panels}")
    areas = [tuple(float(r.get(k)) for k in ("x", "y", "width", "height")) for r in root.iter(SVG + "rect")
             if r.get("class") == "plot-area"]
    areas = [(x, y, x + w, y + h) for x, y, w, h in areas]
    check(len(areas) >= panels, f"{svg}: {len(areas)} charts")
    texts = list(root.iter(SVG + "text"))
    for t in texts:
        box = text_box(t)
        check(box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height,
              f"{svg}: text {''.join(t.itertext())!r} at {box} runs out of the {width} x {height} picture")
    legend = root.find(f".//{SVG}g[@id='legend']")
    check(legend is not None, f"{svg}: no legend")
    for t in legend.iter(SVG + "text"):
        box = text_box(t)
        for area in areas:
            check(not overlaps(box, area), f"{svg}: legend text {''.join(t.itertext())!r} lies over a chart {area}")
    entries = [g for g in legend.iter(SVG + "g") if g.get("class") == "legend-entry"]
    check(entries, f"{svg}: no legend entries")
    marked = [(g.get("data-colour"), g.get("data-marker")) for g in entries if g.get("data-marker") != "none"]
    check(len(marked) == len(set(marked)), f"{svg}: two legend entries share colour and marker: {marked}")
    lines = [g.get("data-line") for g in entries if g.get("data-marker") == "none"]
    check(len(lines) == len(set(lines)), f"{svg}: two legend lines look alike: {lines}")
    for g in entries:  # what an entry records is what it draws
        drawn = [e for e in g if e.tag != SVG + "text"]
        check(all(e.get("stroke") == g.get("data-colour") for e in drawn),
              f"{svg}: a legend entry draws in another colour than {g.get('data-colour')}")
    return root, marked


def check_png(c, svg, name):
    """The SVG through rsvg-convert: the picture's size, not blank, and nothing drawn on its outermost pixels."""
    root = ElementTree.parse(svg).getroot()
    png = c.path(name)
    subprocess.run(["rsvg-convert", "-o", png, svg], check=True, timeout=120)
    rows = check_not_blank(png, round(float(root.get("width"))), round(float(root.get("height"))))
    edge = rows[0] + rows[1] + rows[-1] + rows[-2] + [p for row in rows for p in (row[0], row[1], row[-1], row[-2])]
    check(all(p == (255, 255, 255) for p in edge), f"{png}: something is drawn on the picture's edge")
    print(f"rendered {png}")


def plot_dimensions(c):
    """Plots of sweeps of 1, 2 and 3 varying dimensions, predicted and measured (with failures), rendered to PNG."""
    if shutil.which("rsvg-convert") is None:
        print("ITERAGPU-SKIP: rsvg-convert is missing (Debian package librsvg2-bin): the plots cannot be rendered")
        return
    # 1: width; 65536 predicted past --memory-gib 40 (device), 131072's build past --host-memory-gib 300 (host).
    c.run("sweep", "--predict-only", "--output-dir", c.path("one"), "--width", "1024..131072", "--batch", "1",
          "--context", "1024", "--dtype", "bfloat16", "--memory-gib", "40", "--host-memory-gib", "300")
    # 2: batch x context, some points past 4 GiB.
    c.run("sweep", "--predict-only", "--output-dir", c.path("two"), "--batch", "1..16", "--context", "64..4096",
          "--width", "8192", "--dtype", "bfloat16", "--memory-gib", "4")
    # 3: batch x context x width, the example.
    c.run("sweep", "--predict-only", "--output-dir", c.path("three"), "--batch", "1..16", "--context", "64..4096",
          "--width", "64,128,256,512", "--dtype", "bfloat16", "--memory-gib", "139.8")
    # 3, measured: batch 4 fails (exit 1), activations past 40 MB run out of memory (exit 3), larger points cut off.
    c.configure({"schema": 2, "oom_above_bytes": 40_000_000, "fail_batch": 4, "free_bytes": 200_000_000_000,
                 "gpu_names": {"cuda:0": "Fake H200"}})
    c.sweep_with_fake("measured", "--batch", "1..16", "--context", "256,1024", "--width", "512,1024,2048",
                      "--dtype", "bfloat16")
    for folder, panels in (("one", 1), ("two", 1), ("three", 4), ("measured", 3)):
        svg = c.path(folder, "plot.svg")
        root, marked = check_layout(svg, panels)
        check_png(c, svg, f"plot-{folder}.png")
        texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
        series = [m for m in marked if m[0] not in ("#7f7f7f", "#d62728")]
        print(f"{folder}: {panels} panel(s), {len(series)} series, legend markers {sorted(set(m[1] for m in marked))}")
        if folder == "one":
            check(("#7f7f7f", "cross") in marked and ("#7f7f7f", "plus") in marked,
                  f"{svg}: host and device skips not drawn apart: {marked}")
            check("skipped for device memory:" in texts and "skipped for host memory: the" in texts,
                  f"{svg}: host and device skips not labelled apart")
        if folder == "two":
            check(len(series) == 7, f"{svg}: {len(series)} series, expected one per context")
        if folder == "three":
            check(len(series) == 7, f"{svg}: {len(series)} series, expected one per context")
            check([t for t in texts if t.startswith("width ") and " (" not in t] ==
                  ["width 64", "width 128", "width 256", "width 512"], f"{svg}: panel titles")
        if folder == "measured":
            statuses = sorted(set("".join(t.itertext()) for t in root.iter(SVG + "text") if t.get("class") == "status"))
            check(statuses == ["exit 1", "exit 3"], f"{svg}: failed points labelled {statuses}")
            # No measured line (solid, 2.5 wide) of a series reaches one of its failed points.
            for series in (g for g in root.iter(SVG + "g") if g.get("class") == "series"):
                failed_x = [float(t.get("x")) + (9 if t.get("text-anchor") == "end" else -9)
                            for t in series.iter(SVG + "text") if t.get("class") == "status"]
                for line in series.iter(SVG + "polyline"):
                    if line.get("stroke-width") == "2.5" and line.get("stroke-dasharray") is None:
                        xs = [float(p.split(",")[0]) for p in line.get("points").split()]
                        joined = [x for x in xs if any(abs(x - f) < 1 for f in failed_x)]
                        check(not joined, f"{svg}: a measured line joins a failed point at x {joined}")


def index_html(c):
    c.configure({"schema": 2, "oom_above_bytes": 10_000_000_000, "free_bytes": 200_000_000_000})
    c.sweep_with_fake("measured", "--batch", "8..512", "--context", "4096", "--width", "8192", "--dtype", "bfloat16")
    page = c.path("measured", "index.html")
    text = open(page, encoding="utf-8").read()
    outside = re.findall(r"(?:src|href)\s*=|url\(|@import|https?://(?!www\.w3\.org/2000/svg\")|<script", text)
    check(not outside, f"the page refers outside itself: {outside}")
    if re.search(r"(^|[\s,])browser($|[\s,])", os.environ.get("ITERAGPU_LEAVE_OUT", "")):
        print("ITERAGPU-SKIP: left out by ITERAGPU_LEAVE_OUT=browser")
        return
    browser = shutil.which("chromium")
    if browser is None:
        print("ITERAGPU-SKIP: chromium is missing (Debian package chromium)")
        return
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    dom = subprocess.run([browser, *flags, "--user-data-dir=" + c.path("profile-dom"), "--dump-dom",
                          "file://" + page], capture_output=True, text=True, timeout=120)
    check(dom.returncode == 0, dom.stderr[-2000:])
    check("<svg" in dom.stdout and "mesure_memoire sweep: peak memory against batch" in dom.stdout,
          "the rendered page has no plot")
    table = re.search(r'<table id="summary">(.*?)</table>', dom.stdout, re.S)
    check(table is not None, "the rendered page has no summary table")
    check(table.group(1).count("<tr") == 8, f"{table.group(1).count('<tr')} rows, expected 1 + 7 points")
    check('<table id="environment">' in dom.stdout, "no environment table")
    png = c.path("index.png")
    shot = subprocess.run([browser, *flags, "--user-data-dir=" + c.path("profile-shot"), "--screenshot=" + png,
                           "--window-size=1600,2200", "file://" + page], capture_output=True, text=True, timeout=120)
    check(shot.returncode == 0 and os.path.exists(png), shot.stderr[-2000:])
    rows = check_not_blank(png, 1600, 2200)
    # The plot's red of failed points and the table's heading colour are both on the screen.
    colours = {p for row in rows for p in row}
    check((0xD6, 0x27, 0x28) in colours, "no plot colour in the screenshot")
    check((0xEE, 0xEE, 0xFF) in colours, "no table heading colour in the screenshot")


def progress_plain(c):
    done = c.sweep_with_fake("run", "--batch", "1..4")
    lines = done.stderr.splitlines()
    check(len(lines) == 3 and all(re.match(rf"sweep: \[{i + 1}/3\] point {i} \(batch {2 ** i}, ", line)
                                  for i, line in enumerate(lines)), done.stderr)
    check("\r" not in done.stderr and "\x1b" not in done.stderr, "terminal codes without a terminal")


def progress_bar(c):
    primary, secondary = pty.openpty()
    columns = 200
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    os.set_blocking(primary, False)
    proc = subprocess.Popen([c.program, "sweep", "--device", "cuda:0", "--point-program", FAKE, "--output-dir",
                             c.path("run"), "--batch", "1..4"], stdout=subprocess.PIPE, stderr=secondary,
                            env=c.env())
    os.close(secondary)
    seen = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([primary], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: every writer has closed the terminal
                chunk = b""
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    os.close(primary)
    check(proc.wait(timeout=60) == 0, f"exit {proc.returncode}")
    text = seen.decode("utf-8", "replace")
    print(repr(text[-300:]))
    check("\r\x1b[K[--------------------] 0/3" in text, "no empty bar")
    check("\r\x1b[K[####################] 3/3" in text, "no full bar")
    check("last: point 2 (batch 4, context 16, width 64, float32) on cuda:0: measured" in text, "no last outcome")
    check("running point 1 on cuda:0" in text, "no running point")
    check(text.endswith("\n") or text.endswith("\r\n"), "the bar's line is not ended")
    check("sweep: [" not in text, "plain lines on a terminal")
    drawn = text.rstrip("\r\n").split("\r\x1b[K")[1:]
    check(all(len(d) <= columns - 1 for d in drawn), "a bar wider than the terminal")


def interrupted(c, send, expect):
    c.configure({"sleep_batch": 2, "sleep_seconds": 60})
    proc = c.start("sweep", "--device", "cuda:0", "--point-program", FAKE, "--output-dir", c.path("run"), "--batch",
                   "1..4")
    run = c.path("run")

    def point_1_running():
        # The stand-in logs its start, then reserves its output: .iteragpu-PID-0.partial.
        starts = [line.split()[1] for line in open(c.log, encoding="utf-8") if line.startswith("start") and
                  line.split()[3] == "2"] if os.path.exists(c.log) else []
        return starts and os.path.exists(os.path.join(run, f".iteragpu-{starts[0]}-0.partial"))
    wait_for(point_1_running, 30, "point 1 to be running")
    print("running, with", partials(run))
    send(proc)
    out, err = proc.communicate(timeout=30)
    check(proc.returncode == expect, f"exit {proc.returncode}, expected {expect}: {err}")
    check(f"interrupted by signal {expect - 128}; the running points were stopped and their partial files removed; "
          "records kept by this run: 1, in" in err, err)
    check(partials(run) == [], f"partial files left: {partials(run)}")
    names = set(os.listdir(run))
    check({"points.tsv", "point-0000.json", "point-0000.measurement.json"} <= names, names)
    check(not names & {"point-0001.json", "point-0001.measurement.json", "summary.csv"}, names)
    # Nothing of the sweep is left running.
    check(not [line for line in open(c.log) if line.startswith("start") and "cuda:0 2 " in line and
               os.path.exists(f"/proc/{line.split()[1]}")], "the stopped point still runs")
    c.configure({})
    done = c.run("sweep", "--resume", run, "--device", "cuda:0", "--point-program", FAKE)
    check("points: measured 3, without a result 0" in done.stdout, done.stdout)
    check(os.path.exists(os.path.join(run, "summary.csv")), "no report after the resume")


def interrupt_terminal(c):
    # Ctrl-C in a terminal reaches the whole foreground job: the sweep and its point.
    interrupted(c, lambda p: os.killpg(p.pid, signal.SIGINT), 130)


def interrupt_sweep_alone(c):
    # SIGINT to the sweep only: it stops its point itself.
    interrupted(c, lambda p: os.kill(p.pid, signal.SIGINT), 130)


def terminate(c):
    # A batch system's cancellation (SIGTERM).
    interrupted(c, lambda p: os.kill(p.pid, signal.SIGTERM), 143)


def devices_concurrently(c):
    c.configure({"every_seconds": 0.4, "gpu_names": {"cuda:0": "Fake A", "cuda:1": "Fake B"}})
    c.run("sweep", "--devices", "cuda:0,cuda:1", "--point-program", FAKE, "--output-dir", c.path("run"), "--batch",
          "1..32")
    spans = {}
    for line in open(c.log, encoding="utf-8"):
        what, pid, device, batch, at = line.split()
        spans.setdefault(pid, {"device": device, "batch": int(batch)})[what] = float(at)
    check(len(spans) == 6, f"{len(spans)} processes, expected 6")
    by_device = {}
    for s in spans.values():
        by_device.setdefault(s["device"], []).append((s["start"], s["end"]))
    check(set(by_device) == {"cuda:0", "cuda:1"}, by_device)
    for device, intervals in by_device.items():
        intervals.sort()
        for (_, end), (start, _) in zip(intervals, intervals[1:]):
            check(start >= end, f"two points at once on {device}")
    overlapping = sum(1 for a in by_device["cuda:0"] for b in by_device["cuda:1"] if a[0] < b[1] and b[0] < a[1])
    check(overlapping > 0, "the devices never ran at the same time")
    for name, record in records(c.path("run")).items():
        check(record["gpu_name"] == {"cuda:0": "Fake A", "cuda:1": "Fake B"}[record["device"]], record)
        check(record["outcome"] == "measured", record)
    print(f"6 points on 2 devices, {overlapping} overlapping pairs")


def bad_lists(c):
    for args, message in ((["--batch", "8..100"], "--batch: '8..100': 100 is not 8 times a power of two"),
                          (["--context", "0"], "--context: '0' is not positive"),
                          (["--width", "64,,128"], "--width: '64,,128' has an empty item"),
                          (["--dtype", "fp16"], "--dtype: 'fp16' is not float32, float16 or bfloat16"),
                          (["--repeats", "many"], "--repeats: 'many' is not a positive integer up to 10000, or auto")):
        done = c.run("sweep", "--predict-only", "--output-dir", c.path("run"), *args, expect=2)
        check(done.stdout == "" and done.stderr.count("\n") == 1 and message in done.stderr, done.stderr)
        check(not os.path.exists(c.path("run")), "a folder was made")


def run_without_gpu(c):
    environment = subprocess.run([c.program, "environment", "--device", "cuda:0"], capture_output=True, text=True)
    if json.loads(environment.stdout)["device"]["available"]:
        print("ITERAGPU-SKIP: a GPU is reachable here; the GPU tests run the real sweep")
        return
    done = c.run("sweep", "--device", "cuda:0", "--output-dir", c.path("run"), expect=2)
    check(re.fullmatch(r"mesure_memoire sweep: --device: cuda:0 cannot be measured: .*; nothing was run "
                       r"\(--predict-only plans without a GPU\)\n", done.stderr), done.stderr)
    check(not os.path.exists(c.path("run")), "a folder was made")


CASES = {f.__name__: f for f in (predict_only_100_points, schemas, plot_svg, plot_dimensions, index_html,
                                 progress_plain, progress_bar, interrupt_terminal, interrupt_sweep_alone, terminate,
                                 devices_concurrently, bad_lists, run_without_gpu)}

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[3] not in CASES:
        sys.exit(f"usage: test_sweep_cli.py MESURE_MEMOIRE WORK_DIR CASE, CASE one of {', '.join(CASES)}")
    try:
        CASES[sys.argv[3]](Case(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])))
    except Failure as e:
        print(f"FAILED: {e}")
        sys.exit(1)
    print("passed")
