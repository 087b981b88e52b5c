import { useRef, useState } from 'react'
import { Segmented, Space } from 'antd'
import { VIDEO_RATES } from '../../shared/look/ui-constants.js'
import { useTr } from '../i18n/use-tr.js'

export interface VideoPlayerProps {
  src: string
  width?: number | string
}

/** A video with the browser's controls and the spec's playback rates (000 §9: 0.7, 1, 1.5, 2). */
export default function VideoPlayer({ src, width = 320 }: VideoPlayerProps) {
  const tr = useTr()
  const video = useRef<HTMLVideoElement>(null)
  const [rate, setRate] = useState<number>(1)
  return (
    <Space direction="vertical" size={4} className="video-player">
      <video ref={video} src={src} controls preload="metadata" style={{ width, maxWidth: '100%' }} onRateChange={(e) => setRate(e.currentTarget.playbackRate)} />
      <Segmented
        size="small"
        aria-label={tr('播放速度')}
        value={rate}
        options={VIDEO_RATES.map((r) => ({ value: r, label: `${r}x` }))}
        onChange={(value) => {
          setRate(Number(value))
          if (video.current) video.current.playbackRate = Number(value)
        }}
      />
    </Space>
  )
}
