from enum import StrEnum


class AssetFormat(StrEnum):
    JPEG = "jpeg"
    OTF = "otf"
    PNG = "png"
    TTF = "ttf"
    WEBP = "webp"

    def __str__(self) -> str:
        return str(self.value)
