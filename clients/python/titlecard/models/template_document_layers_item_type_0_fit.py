from enum import StrEnum


class TemplateDocumentLayersItemType0Fit(StrEnum):
    CONTAIN = "contain"
    COVER = "cover"

    def __str__(self) -> str:
        return str(self.value)
