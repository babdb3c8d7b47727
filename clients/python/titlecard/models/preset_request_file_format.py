from enum import StrEnum


class PresetRequestFileFormat(StrEnum):
    JPEG = "jpeg"
    PNG = "png"
    WEBP = "webp"

    def __str__(self) -> str:
        return str(self.value)
