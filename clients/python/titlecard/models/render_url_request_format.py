from enum import StrEnum


class RenderUrlRequestFormat(StrEnum):
    JPEG = "jpeg"
    PNG = "png"
    WEBP = "webp"

    def __str__(self) -> str:
        return str(self.value)
