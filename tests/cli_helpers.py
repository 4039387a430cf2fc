"""Running the crtrig command in the test's own process (shared by the CLI tests)."""
from crtrig.__main__ import main as cli_main


def cli(capsys, *arguments):
    """(exit status, stdout, stderr) of ``crtrig ARGUMENTS``, run through
    crtrig.__main__.main in this process; argparse's SystemExit is a status."""
    try:
        status = cli_main([str(a) for a in arguments])
    except SystemExit as exc:
        status = exc.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err
