"""Tournaments no longer store a bye policy or a correction policy: nothing read them (byes and
corrections follow the format's rules and the TD's rulings)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0015_labels_translatable'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='historicaltournament',
            name='bye_policy',
        ),
        migrations.RemoveField(
            model_name='historicaltournament',
            name='correction_policy',
        ),
        migrations.RemoveField(
            model_name='tournament',
            name='bye_policy',
        ),
        migrations.RemoveField(
            model_name='tournament',
            name='correction_policy',
        ),
    ]
