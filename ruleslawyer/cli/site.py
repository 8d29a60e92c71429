"""`site build OUT` and `site serve [OUT]`: the static reference site."""
from __future__ import annotations

import click

from .context import echo
from .main import pass_app


@click.group()
def site():
    """Build or preview the static reference site (errata applied, cross-linked, searchable)."""


@site.command()
@click.argument("out", type=click.Path(file_okay=False))
@click.option("--force", is_flag=True, help="Re-render every page, not only the changed ones.")
@click.option("--list", "list_file", type=click.Path(dir_okay=False), help="Add a page for this army list.")
@click.option("--as-of", metavar="YYYY-MM-DD", help="Use only the rules and points published on or before this date.")
@pass_app
def build(app, out, force, list_file, as_of):
    """Write the site for the records in the store to the folder OUT.

    Rebuilding into the same folder rewrites only pages whose content changed. Open
    OUT/index.html straight from disk or publish the folder on any static host.
    Example: ruleslawyer site build _site
    """
    from ..site.build import build_site

    if list_file:  # a list that cannot be read stops the build before anything is written
        from ..ingest.sources.armylists import load_list

        load_list(list_file)
    with app.store() as store:
        report = build_site(store, out, force=force, as_of=as_of)
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(report.counts.items()))
    echo(f"Built {report.pages} pages in {report.out} ({kinds}) in {report.seconds:.1f}s: "
               f"{report.rendered} rendered, {report.written} files written, {report.removed} removed.")
    if list_file:
        from ..render.armylist import write_list_page

        with app.store() as store:
            echo(f"Army list page: {write_list_page(store, list_file, out)}")
    if as_of:
        echo(f"As of {as_of}: the site holds only documents published on or before that date")
    echo(f"Open {report.out / 'index.html'}")


@site.command()
@click.argument("out", type=click.Path(file_okay=False), default="_site")
@click.option("--port", type=int, default=8000, show_default=True, help="Port on 127.0.0.1 (0: any free port).")
@pass_app
def serve(app, out, port):
    """Serve the built site in OUT (default _site) on localhost until Ctrl-C.

    Example: ruleslawyer site serve _site --port 8080
    """
    from ..site.serve import make_server

    server = make_server(out, port)
    echo(f"Serving {out} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
