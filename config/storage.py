"""Static files: hashed names once `collectstatic` has written its manifest, plain names before."""

from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's hashed and compressed storage. Until `collectstatic` has run there is no
    manifest; the URLs are then the plain names (served by WhiteNoise from the apps' folders)
    instead of an error on every page."""

    def url(self, name, force=False):
        if not self.hashed_files and not force:
            return FileSystemStorage.url(self, name)
        return super().url(name, force)
