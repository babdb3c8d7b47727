from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.image_page_images_item import ImagePageImagesItem
    from ..models.image_page_pagination import ImagePagePagination


T = TypeVar("T", bound="ImagePage")


@_attrs_define
class ImagePage:
    """
    Attributes:
        images (list[ImagePageImagesItem]):
        pagination (ImagePagePagination):
    """

    images: list[ImagePageImagesItem]
    pagination: ImagePagePagination

    def to_dict(self) -> dict[str, Any]:
        images = []
        for images_item_data in self.images:
            images_item = images_item_data.to_dict()
            images.append(images_item)

        pagination = self.pagination.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "images": images,
                "pagination": pagination,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.image_page_images_item import ImagePageImagesItem
        from ..models.image_page_pagination import ImagePagePagination

        d = dict(src_dict)
        images = []
        _images = d.pop("images")
        for images_item_data in _images:
            images_item = ImagePageImagesItem.from_dict(images_item_data)

            images.append(images_item)

        pagination = ImagePagePagination.from_dict(d.pop("pagination"))

        image_page = cls(
            images=images,
            pagination=pagination,
        )

        return image_page
