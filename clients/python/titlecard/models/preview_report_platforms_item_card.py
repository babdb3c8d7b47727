from enum import StrEnum


class PreviewReportPlatformsItemCard(StrEnum):
    LARGE = "large"
    NONE = "none"
    SMALL = "small"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
