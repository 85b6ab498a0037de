"""Feeders name their source flight by id instead of by name, so renaming a flight keeps them."""

from django.db import migrations


def names_to_ids(apps, schema_editor):
    Flight = apps.get_model("tournaments", "Flight")
    for flight in Flight.objects.exclude(feeders=[]).iterator():
        ids = dict(Flight.objects.filter(tournament_id=flight.tournament_id).values_list("name", "id"))
        feeders = []
        for feeder in flight.feeders or []:
            if "source_id" in feeder:
                feeders.append(feeder)
                continue
            source_id = ids.get(feeder.get("source"))
            if source_id is None:
                raise RuntimeError(f"Flight {flight.pk} ({flight.name}) is fed by {feeder.get('source')!r}, which is"
                                   " not a flight of its event: correct it before migrating.")
            feeders.append({"source_id": source_id, "source_round": feeder["source_round"],
                            "entry_round": feeder["entry_round"]})
        flight.feeders = feeders
        flight.save(update_fields=["feeders"])


def ids_to_names(apps, schema_editor):
    Flight = apps.get_model("tournaments", "Flight")
    for flight in Flight.objects.exclude(feeders=[]).iterator():
        names = dict(Flight.objects.filter(tournament_id=flight.tournament_id).values_list("id", "name"))
        flight.feeders = [
            {"source": names[f["source_id"]], "source_round": f["source_round"], "entry_round": f["entry_round"]}
            if "source_id" in f else f
            for f in flight.feeders or []
        ]
        flight.save(update_fields=["feeders"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_history_reason_text")]

    operations = [migrations.RunPython(names_to_ids, ids_to_names)]
