"""The markdown tables of a command's report (crtrig bench, crtrig compare), for
tests: each table's rows as dicts keyed by its header, with the section heading
(### ...) above it."""


def markdown_tables(text: str) -> list[tuple[str | None, list[dict[str, str]]]]:
    """Every table of the report in order, as (section heading, rows)."""
    found, section, lines = [], None, text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("### "):
            section = lines[i][4:]
        if lines[i].startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            header = [cell.strip() for cell in lines[i].strip("|").split("|")]
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("| "):
                cells = [cell.strip() for cell in lines[i].strip("|").split("|")]
                assert len(cells) == len(header), lines[i]
                rows.append(dict(zip(header, cells)))
                i += 1
            found.append((section, rows))
            continue
        i += 1
    return found
